import { expectEnvelope } from './support/envelope';
import { deliveringToReceiver } from './support/delivering';
import type { Harness, TestLocation } from './support/harness';
import { createProvider, grant, revoke, type TestProvider } from './support/providers';
import { verified, type Receiver } from './support/receiver';
import { P, reservation, type Json } from './support/wire';
import type { Client } from './support/client';

/**
 * docs/reference/webhooks.md#provider-scope-endpoints: a provider key without Location-Id keeps
 * up to ten endpoints of its own that receive the events of every location it is connected to
 * (only what was committed while connected), with data.locationId, and its connection events.
 * Delivered by the API's in-process delivery on PostgreSQL, verified by a real receiver.
 */
let h: Harness;
let receiver: Receiver;
deliveringToReceiver((file) => ({ h, receiver } = file));

let provider: TestProvider;
let wide: Client;
beforeEach(async () => {
  provider = await createProvider(h);
  wide = h.client(provider.key);
});

let paths = 0;
const newPath = () => `/hooks/provider-scope/${++paths}`;
const urlOf = (path: string) => `${receiver.origin}${path}`;
const dataOf = (event: Json) => event['data'] as Json;
const bodiesAt = (path: string, secret: string) =>
  receiver.at(path).map((request) => verified(request, secret) as Json);
const seated = (externalId: string, tableId: string) =>
  reservation({ externalId, status: 'seated', tableIds: [tableId] });

/** Waits until `path` received a body that `match` accepts; answers it. */
const receivedAt = (path: string, secret: string, what: string, match: (body: Json) => boolean) =>
  receiver.until(() => bodiesAt(path, secret).find(match), 10_000, `${what} at ${path}`);

const occupied = (tableId: string) => (body: Json) =>
  body['type'] === 'table.occupied' && dataOf(body)['tableId'] === tableId;
const connectionEvent = (type: string, locationId: string) => (body: Json) =>
  body['type'] === type && dataOf(body)['locationId'] === locationId;

describe('A provider-scope endpoint', () => {
  it('When a provider is connected to two locations, then its provider-scope endpoint gets both locations’ events with data.locationId and the connection events, none of a location it is not connected to, nothing while revoked, and again after a re-grant; a type filter keeps the rest out', async () => {
    const allPath = newPath();
    const revokedOnlyPath = newPath();
    const all = await wide
      .post(`${P}/webhook-endpoints`)
      .send({ url: urlOf(allPath) })
      .expect(201);
    expect(all.body).toMatchObject({ scope: 'provider', locationId: null, status: 'enabled' });
    expect(all.body.eventTypes).toEqual(expect.arrayContaining(['connection.granted', 'connection.revoked']));
    const revokedOnly = await wide
      .post(`${P}/webhook-endpoints`)
      .send({ url: urlOf(revokedOnlyPath), eventTypes: ['connection.revoked'] })
      .expect(201);
    const [a, b, c] = [
      await h.location({ tables: 3 }),
      await h.location({ tables: 3 }),
      await h.location({ tables: 3 }),
    ];
    await grant(h, a!, provider);
    await grant(h, b!, provider);

    const granted = await receivedAt(
      allPath,
      all.body.secret,
      'connection.granted',
      connectionEvent('connection.granted', b!.id),
    );
    expect(dataOf(granted)).toEqual({
      locationId: b!.id,
      locationName: expect.any(String),
      occurredAt: expect.any(String),
    });
    expect(dataOf(granted)).not.toHaveProperty('locationEventSequence');

    await provider.at(a!).post(`${P}/reservations`).send(seated('a-1', a!.tables[0]!)).expect(201);
    await b!.api.post(`${P}/reservations`).send(seated('b-venue-1', b!.tables[0]!)).expect(201);
    await c!.api.post(`${P}/reservations`).send(seated('c-1', c!.tables[0]!)).expect(201);
    const atA = await receivedAt(allPath, all.body.secret, 'A', occupied(a!.tables[0]!));
    const atB = await receivedAt(allPath, all.body.secret, 'B', occupied(b!.tables[0]!));
    expect(dataOf(atA)).toMatchObject({
      locationId: a!.id,
      reservationExternalId: 'a-1',
      locationEventSequence: expect.any(Number),
    });
    // Another provider's reservation (the venue's own) reads null, as in the feed.
    expect(dataOf(atB)).toMatchObject({ locationId: b!.id, reservationExternalId: null });

    await revoke(h, b!, provider);
    await receivedAt(
      revokedOnlyPath,
      revokedOnly.body.secret,
      'connection.revoked',
      connectionEvent('connection.revoked', b!.id),
    );
    await b!.api.post(`${P}/reservations`).send(seated('b-venue-2', b!.tables[1]!)).expect(201);
    await grant(h, b!, provider);
    await b!.api.post(`${P}/reservations`).send(seated('b-venue-3', b!.tables[2]!)).expect(201);
    await receivedAt(allPath, all.body.secret, 'B after the re-grant', occupied(b!.tables[2]!));

    // The relay writes an event's deliveries in outbox order, in one statement each batch: once
    // the last event reached the endpoint, its log holds every delivery it will ever get.
    const log = (await wide.get(`${P}/webhook-deliveries?endpointId=${all.body.id}`).expect(200)).body
      .deliveries as Json[];
    const types = log.map((d) => d['eventType']).sort();
    expect(types).toEqual(
      [
        'connection.granted',
        'connection.granted',
        'connection.granted',
        'connection.revoked',
        'table.occupied',
        'table.occupied',
        'table.occupied',
      ].sort(),
    );
    for (const d of log) {
      expect(d['endpointId']).toBe(all.body.id);
      expect(d['locationEventSequence'] === null).toBe(String(d['eventType']).startsWith('connection.'));
    }
    const seen = bodiesAt(allPath, all.body.secret);
    expect(seen.filter((body) => dataOf(body)['locationId'] === c!.id)).toEqual([]);
    expect(seen.filter(occupied(b!.tables[1]!))).toEqual([]);
    // The filtered endpoint got the revoke alone, and the connection events are in no feed.
    const filteredLog = (
      await wide.get(`${P}/webhook-deliveries?endpointId=${revokedOnly.body.id}`).expect(200)
    ).body.deliveries as Json[];
    expect(filteredLog.map((d) => d['eventType'])).toEqual(['connection.revoked']);
    const feed = (await b!.api.get(`${P}/events`).expect(200)).body.events as Json[];
    expect(feed.map((e) => e['type'])).not.toContain('connection.granted');
    expect(feed.map((e) => e['type'])).not.toContain('connection.revoked');
  });

  it('When a provider-scope endpoint recovers, then since queues its connected locations’ events and its connection events again, and afterSequence is 422 in the envelope', async () => {
    const path = newPath();
    const made = await wide
      .post(`${P}/webhook-endpoints`)
      .send({ url: urlOf(path) })
      .expect(201);
    const before = new Date(Date.now() - 1000).toISOString();
    const loc = await h.location({ tables: 2 });
    await grant(h, loc, provider);
    await loc.api.post(`${P}/reservations`).send(seated('venue-1', loc.tables[0]!)).expect(201);
    await receivedAt(path, made.body.secret, 'the event', occupied(loc.tables[0]!));

    const recovered = await wide
      .post(`${P}/webhook-endpoints/${made.body.id}/recover`)
      .send({ since: before })
      .expect(202);
    expect(recovered.body.queued).toBe(2);
    await receiver.until(
      () =>
        bodiesAt(path, made.body.secret).filter(occupied(loc.tables[0]!)).length === 2 ? true : undefined,
      10_000,
      'the recovered table.occupied',
    );
    expectEnvelope(
      await wide.post(`${P}/webhook-endpoints/${made.body.id}/recover`).send({ afterSequence: 0 }),
      422,
      'validation_failed',
    );
  });
});

describe('The provider scope, addressed', () => {
  it('When endpoints of several scopes exist, then each scope reads, changes, rotates, tests and deletes its own only (another’s id is 404), and bad input is refused in the envelope', async () => {
    const loc = await h.location({ tables: 1 });
    await grant(h, loc, provider);
    const stranger = await createProvider(h);
    const strangerWide = h.client(stranger.key);
    const mine = await wide
      .post(`${P}/webhook-endpoints`)
      .send({ url: urlOf(newPath()), description: 'all venues' })
      .expect(201);
    const located = await provider
      .at(loc)
      .post(`${P}/webhook-endpoints`)
      .send({ url: urlOf(newPath()) })
      .expect(201);
    const theirs = await strangerWide
      .post(`${P}/webhook-endpoints`)
      .send({ url: urlOf(newPath()) })
      .expect(201);
    expect(located.body).toMatchObject({ scope: 'location', locationId: loc.id });

    const listed = (await wide.get(`${P}/webhook-endpoints`).expect(200)).body.endpoints as Json[];
    expect(listed.map((e) => e['id'])).toEqual([mine.body.id]);
    const listedThere = (await provider.at(loc).get(`${P}/webhook-endpoints`).expect(200)).body
      .endpoints as Json[];
    expect(listedThere.map((e) => e['id'])).toEqual([located.body.id]);

    for (const [client, id] of [
      [wide, located.body.id],
      [wide, theirs.body.id],
      [provider.at(loc), mine.body.id],
      [loc.api, mine.body.id],
      [strangerWide, mine.body.id],
    ] as const) {
      expectEnvelope(await client.get(`${P}/webhook-endpoints/${id}`), 404, 'not_found');
      expectEnvelope(
        await client.patch(`${P}/webhook-endpoints/${id}`).send({ description: 'x' }),
        404,
        'not_found',
      );
      expectEnvelope(await client.post(`${P}/webhook-endpoints/${id}/rotate-secret`), 404, 'not_found');
      expectEnvelope(await client.post(`${P}/webhook-endpoints/${id}/test`), 404, 'not_found');
      expectEnvelope(
        await client.post(`${P}/webhook-endpoints/${id}/recover`).send({ since: new Date().toISOString() }),
        404,
        'not_found',
      );
      expectEnvelope(await client.delete(`${P}/webhook-endpoints/${id}`), 404, 'not_found');
    }
    // Another scope's deliveries are never listed.
    const foreignLog = (await wide.get(`${P}/webhook-deliveries?endpointId=${theirs.body.id}`).expect(200))
      .body;
    expect(foreignLog.deliveries).toEqual([]);

    const changed = await wide
      .patch(`${P}/webhook-endpoints/${mine.body.id}`)
      .send({ eventTypes: ['connection.granted', 'table.freed'], description: null })
      .expect(200);
    expect(changed.body).toMatchObject({
      eventTypes: ['table.freed', 'connection.granted'],
      description: null,
      scope: 'provider',
    });
    const rotated = await wide.post(`${P}/webhook-endpoints/${mine.body.id}/rotate-secret`).expect(200);
    expect(rotated.body.secret).not.toBe(mine.body.secret);
    const tested = await wide.post(`${P}/webhook-endpoints/${mine.body.id}/test`).expect(200);
    expect(tested.body).toMatchObject({ delivered: true });
    expect((await wide.get(`${P}/webhook-endpoints/${mine.body.id}`).expect(200)).body.secret).toBe(
      rotated.body.secret,
    );

    // Bad input: an unknown type, a connection type at a location, malformed ids and headers.
    expectEnvelope(
      await wide.post(`${P}/webhook-endpoints`).send({ url: urlOf(newPath()), eventTypes: ['table.sold'] }),
      422,
      'validation_failed',
    );
    expectEnvelope(
      await provider
        .at(loc)
        .post(`${P}/webhook-endpoints`)
        .send({ url: urlOf(newPath()), eventTypes: ['connection.granted'] }),
      422,
      'validation_failed',
    );
    expectEnvelope(
      await provider
        .at(loc)
        .patch(`${P}/webhook-endpoints/${located.body.id}`)
        .send({ eventTypes: ['connection.revoked'] }),
      422,
      'validation_failed',
    );
    expectEnvelope(await wide.get(`${P}/webhook-endpoints/not-a-uuid`), 404, 'not_found');
    // A malformed endpointId names no endpoint of the scope: no deliveries, as for any other scope's id.
    expect(
      (await wide.get(`${P}/webhook-deliveries?endpointId=not-a-uuid`).expect(200)).body.deliveries,
    ).toEqual([]);
    expectEnvelope(
      await wide.get(`${P}/webhook-endpoints`).set('Location-Id', 'nope'),
      422,
      'validation_failed',
    );
    // Every other location route still needs the location.
    expectEnvelope(await wide.get(`${P}/reservations`), 400, 'location_required');
    expectEnvelope(await wide.get(`${P}/webhook-endpoint`), 400, 'location_required');

    await wide.delete(`${P}/webhook-endpoints/${mine.body.id}`).expect(204);
    expect((await wide.get(`${P}/webhook-endpoints`).expect(200)).body.endpoints).toEqual([]);
    expect((await provider.at(loc).get(`${P}/webhook-endpoints`).expect(200)).body.endpoints).toHaveLength(1);
  });

  it('When twelve provider-scope creations race, then exactly ten are created and two answer 409 endpoint_limit; the provider’s location scope is not counted', async () => {
    const answers = await Promise.all(
      Array.from({ length: 12 }, () => wide.post(`${P}/webhook-endpoints`).send({ url: urlOf(newPath()) })),
    );
    expect(answers.filter((a) => a.status === 201)).toHaveLength(10);
    const refused = answers.filter((a) => a.status !== 201);
    expect(refused).toHaveLength(2);
    for (const res of refused) expectEnvelope(res, 409, 'endpoint_limit');
    expect((await wide.get(`${P}/webhook-endpoints`).expect(200)).body.endpoints).toHaveLength(10);
    const loc: TestLocation = await h.location({ tables: 1 });
    await grant(h, loc, provider);
    await provider
      .at(loc)
      .post(`${P}/webhook-endpoints`)
      .send({ url: urlOf(newPath()) })
      .expect(201);
  });
});
