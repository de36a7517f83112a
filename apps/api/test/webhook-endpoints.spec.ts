import { expectEnvelope } from './support/envelope';
import { deliveringToReceiver } from './support/delivering';
import type { Harness, TestLocation } from './support/harness';
import { createProvider, grant, revoke, type TestProvider } from './support/providers';
import { verified, type Received, type Receiver } from './support/receiver';
import { P, reservation, type Json } from './support/wire';

/**
 * docs/reference/webhooks.md#several-endpoints: a location's providers each keep up to ten
 * endpoints there, each with its own secret, event types and delivery log; every event goes
 * to each endpoint that wants it, signed over the body its provider may see, with
 * `data.locationId`. Delivered by the API's in-process delivery on PostgreSQL, verified by a
 * real receiver.
 */
let h: Harness;
let receiver: Receiver;
deliveringToReceiver((file) => ({ h, receiver } = file));

let loc: TestLocation;
let other: TestProvider;
beforeEach(async () => {
  loc = await h.location({ tables: 3 });
  other = await createProvider(h);
  await grant(h, loc, other);
});

let paths = 0;
const newPath = () => `/hooks/several/${++paths}`;
const urlOf = (path: string) => `${receiver.origin}${path}`;

const dataOf = (event: Json) => event['data'] as Json;

/** The verified bodies that reached `path` (throws on a bad signature). */
const bodiesAt = (path: string, secret: string) =>
  receiver.at(path).map((request) => verified(request, secret) as Json);

const occupiedAt = (path: string, secret: string, tableId: string) =>
  receiver.until(
    () =>
      bodiesAt(path, secret).find(
        (body) => body['type'] === 'table.occupied' && dataOf(body)['tableId'] === tableId,
      ),
    10_000,
    `table.occupied for ${tableId} at ${path}`,
  );

const seated = (externalId: string, tableId: string) =>
  reservation({ externalId, status: 'seated', tableIds: [tableId] });

describe('Several endpoints at one location', () => {
  it('When a location has the singleton and two more endpoints, then each gets the events it names, signed with its own secret, with data.locationId; a filtered-out type gets no delivery row', async () => {
    const singletonPath = newPath();
    const allPath = newPath();
    const freedOnlyPath = newPath();
    const singleton = await loc.api
      .put(`${P}/webhook-endpoint`)
      .send({ url: urlOf(singletonPath) })
      .expect(200);
    const all = await loc.api
      .post(`${P}/webhook-endpoints`)
      .send({ url: urlOf(allPath), description: 'kitchen display' })
      .expect(201);
    const freedOnly = await loc.api
      .post(`${P}/webhook-endpoints`)
      .send({ url: urlOf(freedOnlyPath), eventTypes: ['table.freed'] })
      .expect(201);
    expect(all.body).toMatchObject({
      url: urlOf(allPath),
      description: 'kitchen display',
      scope: 'location',
      locationId: loc.id,
      status: 'enabled',
    });
    expect(freedOnly.body.eventTypes).toEqual(['table.freed']);
    expect(new Set([singleton.body.secret, all.body.secret, freedOnly.body.secret]).size).toBe(3);

    await loc.api.post(`${P}/reservations`).send(seated('mine-1', loc.tables[0]!)).expect(201);

    const viaSingleton = await occupiedAt(singletonPath, singleton.body.secret, loc.tables[0]!);
    const viaAll = await occupiedAt(allPath, all.body.secret, loc.tables[0]!);
    expect(dataOf(viaSingleton)['locationId']).toBe(loc.id);
    expect(viaAll).toEqual(viaSingleton);
    expect(() => verified(receiver.at(allPath)[0]!, singleton.body.secret)).toThrow();

    // The relay writes every endpoint's delivery of an event in one statement: the filtered
    // endpoint's log is final once another endpoint received the event.
    const logOf = async (endpointId: string) =>
      (await loc.api.get(`${P}/webhook-deliveries?endpointId=${endpointId}`).expect(200)).body
        .deliveries as Json[];
    expect(await logOf(freedOnly.body.id)).toEqual([]);
    const allLog = await logOf(all.body.id);
    expect(allLog.map((d) => [d['eventType'], d['endpointId']])).toEqual([['table.occupied', all.body.id]]);
    const everyLog = (await loc.api.get(`${P}/webhook-deliveries`).expect(200)).body.deliveries as Json[];
    expect(new Set(everyLog.map((d) => d['endpointId']))).toEqual(
      new Set([all.body.id, (await singletonId(loc))!]),
    );
  });

  it('When another provider keeps its own endpoint at the location, then it gets every event with its own reservation ids only, the location reads neither its endpoint nor its deliveries, and a revoke stops its deliveries', async () => {
    const ownPath = newPath();
    const theirPath = newPath();
    const own = await loc.api
      .post(`${P}/webhook-endpoints`)
      .send({ url: urlOf(ownPath) })
      .expect(201);
    const theirs = await other
      .at(loc)
      .post(`${P}/webhook-endpoints`)
      .send({ url: urlOf(theirPath) })
      .expect(201);
    expect(theirs.body).toMatchObject({ scope: 'location', locationId: loc.id });

    await other.at(loc).post(`${P}/reservations`).send(seated('theirs-1', loc.tables[0]!)).expect(201);
    await loc.api.post(`${P}/reservations`).send(seated('mine-1', loc.tables[1]!)).expect(201);

    const theirsAtTheirs = await occupiedAt(theirPath, theirs.body.secret, loc.tables[0]!);
    const mineAtTheirs = await occupiedAt(theirPath, theirs.body.secret, loc.tables[1]!);
    const theirsAtOwn = await occupiedAt(ownPath, own.body.secret, loc.tables[0]!);
    const mineAtOwn = await occupiedAt(ownPath, own.body.secret, loc.tables[1]!);
    expect(dataOf(theirsAtTheirs)['reservationExternalId']).toBe('theirs-1');
    expect(dataOf(mineAtTheirs)['reservationExternalId']).toBeNull();
    expect(dataOf(theirsAtOwn)['reservationExternalId']).toBeNull();
    expect(dataOf(mineAtOwn)['reservationExternalId']).toBe('mine-1');
    expect(JSON.stringify(bodiesAt(theirPath, theirs.body.secret))).not.toContain('mine-1');

    // Each scope reads its own endpoints only; another scope's id is not found.
    const ownList = (await loc.api.get(`${P}/webhook-endpoints`).expect(200)).body.endpoints as Json[];
    expect(ownList.map((e) => e['id'])).toEqual([own.body.id]);
    const theirList = (await other.at(loc).get(`${P}/webhook-endpoints`).expect(200)).body
      .endpoints as Json[];
    expect(theirList.map((e) => e['id'])).toEqual([theirs.body.id]);
    expectEnvelope(await loc.api.get(`${P}/webhook-endpoints/${theirs.body.id}`), 404, 'not_found');
    expectEnvelope(await loc.api.delete(`${P}/webhook-endpoints/${theirs.body.id}`), 404, 'not_found');
    expectEnvelope(
      await other.at(loc).patch(`${P}/webhook-endpoints/${own.body.id}`).send({ description: 'x' }),
      404,
      'not_found',
    );
    const ownDeliveries = (await loc.api.get(`${P}/webhook-deliveries`).expect(200)).body
      .deliveries as Json[];
    expect(ownDeliveries.every((d) => d['endpointId'] === own.body.id)).toBe(true);
    const theirDeliveries = (await other.at(loc).get(`${P}/webhook-deliveries`).expect(200)).body
      .deliveries as Json[];
    expect(theirDeliveries.length).toBe(2);
    expect(theirDeliveries.every((d) => d['endpointId'] === theirs.body.id)).toBe(true);

    // After the revoke, the next event reaches the location's endpoint and no delivery to theirs is made.
    await revoke(h, loc, other);
    await loc.api.post(`${P}/reservations`).send(seated('mine-2', loc.tables[2]!)).expect(201);
    await occupiedAt(ownPath, own.body.secret, loc.tables[2]!);
    const afterRevoke = await h.operator
      .get(`/api/backoffice/v1/locations/${loc.id}/webhook-deliveries?endpointId=${theirs.body.id}`)
      .expect(200);
    expect((afterRevoke.body.deliveries as Json[]).map((d) => d['eventType'])).toEqual([
      'table.occupied',
      'table.occupied',
    ]);
  });
});

describe('One endpoint by id', () => {
  it('When an endpoint is changed, rotated and deleted, then each answer says so, the old secret keeps signing beside the new one, and bad input is refused in the envelope', async () => {
    const first = newPath();
    const second = newPath();
    const created = await loc.api
      .post(`${P}/webhook-endpoints`)
      .send({ url: urlOf(first) })
      .expect(201);
    const id = created.body.id as string;
    const read = await loc.api.get(`${P}/webhook-endpoints/${id}`).expect(200);
    expect(read.body).toEqual(created.body);

    const unknownType = await loc.api
      .post(`${P}/webhook-endpoints`)
      .send({ url: urlOf(first), eventTypes: ['table.sold'] });
    expectEnvelope(unknownType, 422, 'validation_failed');
    expectEnvelope(
      await loc.api.patch(`${P}/webhook-endpoints/${id}`).send({ eventTypes: ['nope'] }),
      422,
      'validation_failed',
    );
    expectEnvelope(await loc.api.get(`${P}/webhook-endpoints/not-an-id`), 404, 'not_found');

    const patched = await loc.api
      .patch(`${P}/webhook-endpoints/${id}`)
      .send({ url: urlOf(second), eventTypes: ['table.occupied'], description: 'bar' })
      .expect(200);
    expect(patched.body).toMatchObject({
      id,
      url: urlOf(second),
      eventTypes: ['table.occupied'],
      description: 'bar',
      secret: created.body.secret,
    });

    const rotated = await loc.api.post(`${P}/webhook-endpoints/${id}/rotate-secret`).expect(200);
    expect(rotated.body.secret).not.toBe(created.body.secret);
    await loc.api.post(`${P}/reservations`).send(seated('r-1', loc.tables[0]!)).expect(201);
    const withNew = await occupiedAt(second, rotated.body.secret, loc.tables[0]!);
    const [request] = receiver.at(second) as Received[];
    expect(verified(request!, created.body.secret)).toEqual(withNew);
    expect(receiver.at(first)).toEqual([]);

    const tested = await loc.api.post(`${P}/webhook-endpoints/${id}/test`).expect(200);
    expect(tested.body).toMatchObject({ delivered: true });
    const test = await receiver.until(
      () => bodiesAt(second, rotated.body.secret).find((b) => b['type'] === 'webhook.test'),
      10_000,
      'webhook.test',
    );
    expect(test['type']).toBe('webhook.test');

    await loc.api.delete(`${P}/webhook-endpoints/${id}`).expect(204);
    expectEnvelope(await loc.api.get(`${P}/webhook-endpoints/${id}`), 404, 'not_found');
    expectEnvelope(await loc.api.delete(`${P}/webhook-endpoints/${id}`), 404, 'not_found');
  });

  it('When the singleton was registered with PUT, then it is listed among the endpoints, and the singleton routes keep acting on it alone', async () => {
    const path = newPath();
    const put = await loc.api
      .put(`${P}/webhook-endpoint`)
      .send({ url: urlOf(path) })
      .expect(200);
    const added = await loc.api
      .post(`${P}/webhook-endpoints`)
      .send({ url: urlOf(newPath()) })
      .expect(201);
    const listed = (await loc.api.get(`${P}/webhook-endpoints`).expect(200)).body.endpoints as Json[];
    expect(listed.map((e) => e['secret'])).toEqual([put.body.secret, added.body.secret]);

    const rotated = await loc.api.post(`${P}/webhook-endpoint/rotate-secret`).expect(200);
    const again = await loc.api.get(`${P}/webhook-endpoints/${added.body.id}`).expect(200);
    expect(again.body.secret).toBe(added.body.secret);
    await loc.api.delete(`${P}/webhook-endpoint`).expect(204);
    const left = (await loc.api.get(`${P}/webhook-endpoints`).expect(200)).body.endpoints as Json[];
    expect(left.map((e) => e['id'])).toEqual([added.body.id]);
    expect(rotated.body.secret).not.toBe(put.body.secret);
    expectEnvelope(await loc.api.get(`${P}/webhook-endpoint`), 404, 'not_found');
  });
});

describe('Recover to one endpoint', () => {
  it('When another provider’s endpoint recovers from the start, then it gets again only what was committed while its provider was connected, with the original webhook-ids; the location’s endpoint gets everything', async () => {
    await revoke(h, loc, other);
    await loc.api.post(`${P}/reservations`).send(seated('gap-1', loc.tables[0]!)).expect(201);
    await grant(h, loc, other);
    const ownPath = newPath();
    const theirPath = newPath();
    const own = await loc.api
      .post(`${P}/webhook-endpoints`)
      .send({ url: urlOf(ownPath) })
      .expect(201);
    const theirs = await other
      .at(loc)
      .post(`${P}/webhook-endpoints`)
      .send({ url: urlOf(theirPath) })
      .expect(201);
    await loc.api.post(`${P}/reservations`).send(seated('after-1', loc.tables[1]!)).expect(201);
    const first = await occupiedAt(theirPath, theirs.body.secret, loc.tables[1]!);

    const recovered = await other
      .at(loc)
      .post(`${P}/webhook-endpoints/${theirs.body.id}/recover`)
      .send({ afterSequence: 0 })
      .expect(202);
    await loc.api
      .post(`${P}/webhook-endpoints/${own.body.id}/recover`)
      .send({ afterSequence: 0 })
      .expect(202);
    expectEnvelope(
      await loc.api.post(`${P}/webhook-endpoints/${theirs.body.id}/recover`).send({ afterSequence: 0 }),
      404,
      'not_found',
    );
    await occupiedAt(ownPath, own.body.secret, loc.tables[0]!);
    const again = await receiver.until(
      () => {
        const got = receiver
          .at(theirPath)
          .filter((r) => (verified(r, theirs.body.secret) as Json)['type'] === 'table.occupied');
        return got.length >= 2 ? got : undefined;
      },
      10_000,
      'the recovered table.occupied',
    );

    expect(recovered.body.queued).toBe(1);
    expect(new Set(again.map((r) => r.headers['webhook-id']))).toEqual(
      new Set([receiver.at(theirPath)[0]!.headers['webhook-id']]),
    );
    expect(dataOf(first)['reservationExternalId']).toBeNull();
    const theirTables = bodiesAt(theirPath, theirs.body.secret).map((b) => dataOf(b)['tableId']);
    expect(theirTables).not.toContain(loc.tables[0]);
  });
});

describe('The limit of ten endpoints per scope', () => {
  it('When twelve creations race in one scope, then exactly ten are created and two answer 409 endpoint_limit; another provider’s scope at the location is not counted', async () => {
    const answers = await Promise.all(
      Array.from({ length: 12 }, () =>
        loc.api.post(`${P}/webhook-endpoints`).send({ url: urlOf(newPath()) }),
      ),
    );
    expect(answers.filter((a) => a.status === 201)).toHaveLength(10);
    const refused = answers.filter((a) => a.status !== 201);
    expect(refused).toHaveLength(2);
    for (const res of refused) expectEnvelope(res, 409, 'endpoint_limit');
    const listed = (await loc.api.get(`${P}/webhook-endpoints`).expect(200)).body.endpoints as Json[];
    expect(listed).toHaveLength(10);

    await other
      .at(loc)
      .post(`${P}/webhook-endpoints`)
      .send({ url: urlOf(newPath()) })
      .expect(201);
  });
});

async function singletonId(location: TestLocation): Promise<string | undefined> {
  const listed = (await location.api.get(`${P}/webhook-endpoints`).expect(200)).body.endpoints as Json[];
  const put = await location.api.get(`${P}/webhook-endpoint`).expect(200);
  return listed.find((e) => e['secret'] === put.body.secret)?.['id'] as string | undefined;
}
