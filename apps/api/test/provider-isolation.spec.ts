import { expectEnvelope } from './support/envelope';
import { Harness, type TestLocation } from './support/harness';
import { createProvider, grant, located, revoke, type TestProvider } from './support/providers';
import { B, P, nextUpdatedAt, reservation, type Json } from './support/wire';

/**
 * docs/reference/providers.md#isolation: reservations belong to the provider that created them,
 * the venue (plan, tables, occupancy, till) is shared, and what a provider sees of another's
 * reservation is that it exists, never its id: in the 409's occupiedBy, in the feed and in the
 * snapshot. A revoked provider is refused, keeps what it stored, and its feed leaves out the
 * events committed while it was not connected.
 */
let h: Harness;
beforeAll(async () => {
  h = await Harness.start();
});
afterAll(async () => {
  await h?.stop();
});

const WINDOW = 'from=2026-11-21T00:00Z&to=2026-11-22T00:00Z';

let loc: TestLocation;
let a: TestProvider;
let b: TestProvider;
beforeEach(async () => {
  loc = await h.location({ tables: 4 });
  [a, b] = [await createProvider(h), await createProvider(h)];
  await grant(h, loc, a);
  await grant(h, loc, b);
});

const listed = async (api: ReturnType<TestProvider['at']> | TestLocation['api']) =>
  (await api.get(`${P}/reservations?${WINDOW}`).expect(200)).body.reservations as Json[];

const seated = (externalId: string, tableIds: (string | undefined)[]) =>
  reservation({ externalId, status: 'seated', tableIds });

describe('Reservations belong to the provider that created them', () => {
  it('When two providers create the same externalId, then both are created as two reservations, each listed and updated by its own provider only', async () => {
    const [ra, rb] = await Promise.all([
      a
        .at(loc)
        .post(`${P}/reservations`)
        .send(reservation({ externalId: 'r-1', partyName: 'A' })),
      b
        .at(loc)
        .post(`${P}/reservations`)
        .send(reservation({ externalId: 'r-1', partyName: 'B' })),
    ]);
    const put = await b
      .at(loc)
      .put(`${P}/reservations/r-1`)
      .send(reservation({ externalId: 'r-1', partyName: 'B2' }));

    expect([ra.status, rb.status, put.status]).toEqual([201, 201, 200]);
    expect(ra.body.reservation.id).not.toBe(rb.body.reservation.id);
    expect((await listed(a.at(loc))).map((r) => r['partyName'])).toEqual(['A']);
    expect((await listed(b.at(loc))).map((r) => r['partyName'])).toEqual(['B2']);
    expect(await listed(loc.api)).toEqual([]);
  });

  it('When a provider writes another provider’s externalId with PUT, then 404 unknown_reservation and the other’s is untouched; its own POST of it is a new reservation', async () => {
    const body = reservation({ externalId: 'r-7' });
    const created = await a.at(loc).post(`${P}/reservations`).send(body).expect(201);

    const cancel = await b
      .at(loc)
      .put(`${P}/reservations/r-7`)
      .send({ ...body, status: 'cancelled', updatedAt: nextUpdatedAt() });
    const seat = await b
      .at(loc)
      .put(`${P}/reservations/r-7`)
      .send({ ...seated('r-7', [loc.tables[0]]) });
    const own = await loc.api.put(`${P}/reservations/r-7`).send({ ...body, updatedAt: nextUpdatedAt() });
    const duplicate = await a.at(loc).post(`${P}/reservations`).send(body);
    const mine = await b.at(loc).post(`${P}/reservations`).send(body);

    expectEnvelope(cancel, 404, 'unknown_reservation');
    expectEnvelope(seat, 404, 'unknown_reservation');
    expectEnvelope(own, 404, 'unknown_reservation');
    expectEnvelope(duplicate, 409, 'duplicate_reservation');
    expect(mine.status).toBe(201);
    expect(await listed(a.at(loc))).toEqual([created.body.reservation]);
    expect(await h.openOrders(loc)).toEqual([]);
  });

  it('When two providers race their first write of the same externalId many times, then every write is 201 and each provider holds its own', async () => {
    const ids = Array.from({ length: 6 }, (_, i) => `race-${i}`);
    const answers = await Promise.all(
      ids.flatMap((externalId) => [
        a.at(loc).post(`${P}/reservations`).send(reservation({ externalId })),
        b.at(loc).post(`${P}/reservations`).send(reservation({ externalId })),
        loc.api.post(`${P}/reservations`).send(reservation({ externalId })),
      ]),
    );

    expect(answers.map((r) => r.status)).toEqual(answers.map(() => 201));
    for (const api of [a.at(loc), b.at(loc), loc.api]) {
      expect((await listed(api)).map((r) => r['externalId']).sort()).toEqual([...ids].sort());
    }
  });
});

describe('The venue is shared; another provider’s reservation reads as a walk-in', () => {
  it('When a provider seats on a table another provider’s reservation holds, then 409 table_occupied naming the order and null for the reservation; the owner and the till see its id', async () => {
    const first = await a
      .at(loc)
      .post(`${P}/reservations`)
      .send(seated('r-a', [loc.tables[0]]))
      .expect(201);
    const orderId = first.body.reservation.linkedOrderId;

    const other = await b
      .at(loc)
      .post(`${P}/reservations`)
      .send(seated('r-b', [loc.tables[0]]));
    const own = await loc.api.post(`${P}/reservations`).send(seated('r-l', [loc.tables[0]]));
    const itself = await a
      .at(loc)
      .post(`${P}/reservations`)
      .send(seated('r-a2', [loc.tables[0]]));
    const till = await h.operator.post(loc.ops('/orders')).send({ tableIds: [loc.tables[0]], covers: 2 });

    for (const refused of [other, own]) {
      expectEnvelope(refused, 409, 'table_occupied');
      expect(refused.body.error.occupiedBy).toEqual({ orderId, reservationExternalId: null });
      expect(JSON.stringify(refused.body)).not.toContain('r-a');
    }
    expect(itself.body.error.occupiedBy).toEqual({ orderId, reservationExternalId: 'r-a' });
    expect(till.body.error.occupiedBy).toEqual({ orderId, reservationExternalId: 'r-a' });
  });

  it('When a reservation is seated and moved, then its provider’s feed names it and every other provider’s (the location key’s too) reads null, with the same ids and sequences', async () => {
    await a
      .at(loc)
      .post(`${P}/reservations`)
      .send(seated('r-f', [loc.tables[0]]))
      .expect(201);
    const move = reservation({ externalId: 'r-f', status: 'seated', tableIds: [loc.tables[1]] });
    await a.at(loc).put(`${P}/reservations/r-f`).send(move).expect(200);

    const feeds = await Promise.all(
      [a.at(loc), b.at(loc), loc.api].map(
        async (api) => (await api.get(`${P}/events?after=0`).expect(200)).body.events as Json[],
      ),
    );

    const [mine, theirs, venue] = feeds.map((events) =>
      events.filter((e) => e['type'] !== 'floorplan.published'),
    );
    expect(mine!.map((e) => (e['data'] as Json)['reservationExternalId'])).toEqual(['r-f', 'r-f', 'r-f']);
    for (const other of [theirs!, venue!]) {
      expect(other.map((e) => [e['id'], e['type'], (e['data'] as Json)['locationEventSequence']])).toEqual(
        mine!.map((e) => [e['id'], e['type'], (e['data'] as Json)['locationEventSequence']]),
      );
      expect(other.map((e) => (e['data'] as Json)['reservationExternalId'])).toEqual([null, null, null]);
      expect(JSON.stringify(other)).not.toContain('r-f');
    }
  });

  it('When the snapshot is read, then the order of another provider’s reservation shows reservationExternalId null; its owner’s shows it; the tables are taken for all', async () => {
    await a
      .at(loc)
      .post(`${P}/reservations`)
      .send(seated('r-s', [loc.tables[2]]))
      .expect(201);

    const states = await Promise.all(
      [a.at(loc), b.at(loc), loc.api].map(
        async (api) => (await api.get(`${P}/tables/state`).expect(200)).body,
      ),
    );

    const orderOf = (state: Json) => (state['tables'] as Json[]).find((t) => t['tableId'] === loc.tables[2])!;
    expect(states.map((s) => orderOf(s)['status'])).toEqual(['occupied', 'occupied', 'occupied']);
    expect(states.map((s) => (orderOf(s)['order'] as Json)['reservationExternalId'])).toEqual([
      'r-s',
      null,
      null,
    ]);
    expect(new Set(states.map((s) => s['asOfSequence'])).size).toBe(1);
  });

  it('When a provider uses the till simulator of a sandbox location, then another provider’s seated reservation shows as a walk-in there too', async () => {
    const sandbox = await h.location({ sandbox: true, tables: 3 });
    const testKey = async (p: TestProvider) =>
      (await h.operator.post(`${B}/providers/${p.id}/api-keys`).send({ mode: 'test' }).expect(201)).body
        .key as string;
    const [ta, tb] = [
      located(h.client(await testKey(a)), sandbox.id),
      located(h.client(await testKey(b)), sandbox.id),
    ];
    await grant(h, sandbox, a);
    await grant(h, sandbox, b);
    await ta
      .post(`${P}/reservations`)
      .send(seated('r-sim', [sandbox.tables[0]]))
      .expect(201);

    const orders = (await tb.get(`${P}/sandbox/orders`).expect(200)).body.orders as Json[];
    const walkIn = await tb.post(`${P}/sandbox/orders`).send({ tableIds: [sandbox.tables[0]], covers: 2 });

    expect(orders.map((o) => o['reservationExternalId'])).toEqual([null]);
    expectEnvelope(walkIn, 409, 'table_occupied');
    expect(walkIn.body.error.occupiedBy.reservationExternalId).toBeNull();
    expect(
      ((await ta.get(`${P}/sandbox/orders`).expect(200)).body.orders as Json[])[0]!['reservationExternalId'],
    ).toBe('r-sim');
  });
});

describe('Revocation', () => {
  it('When a provider is revoked, then its calls for the location are 403; what it stored stays, and a re-grant gives the same reservations back', async () => {
    const created = await a
      .at(loc)
      .post(`${P}/reservations`)
      .send(seated('r-keep', [loc.tables[0]]))
      .expect(201);

    await revoke(h, loc, a);
    for (const call of [
      a.at(loc).get(`${P}/reservations?${WINDOW}`),
      a
        .at(loc)
        .put(`${P}/reservations/r-keep`)
        .send(reservation({ externalId: 'r-keep', status: 'cancelled' })),
      a.at(loc).get(`${P}/events`),
      a.at(loc).get(`${P}/tables/state`),
    ]) {
      expectEnvelope(await call, 403, 'location_not_granted');
    }
    const blocked = await b
      .at(loc)
      .post(`${P}/reservations`)
      .send(seated('r-other', [loc.tables[0]]));
    await grant(h, loc, a);

    expectEnvelope(blocked, 409, 'table_occupied');
    expect(await listed(a.at(loc))).toEqual([created.body.reservation]);
  });

  it('When events are committed before a provider’s first grant and between a revoke and a re-grant, then its feed leaves them out as if filtered, and the others see them all', async () => {
    const fresh = await h.location({ tables: 4 });
    const p = await createProvider(h);
    await h.walkIn(fresh, [fresh.tables[0]!]);
    await grant(h, fresh, p);
    await h.walkIn(fresh, [fresh.tables[1]!]);
    await revoke(h, fresh, p);
    await h.walkIn(fresh, [fresh.tables[2]!]);
    await grant(h, fresh, p);
    await h.walkIn(fresh, [fresh.tables[3]!]);

    const feed = (await p.at(fresh).get(`${P}/events?after=0`).expect(200)).body;
    const all = (await fresh.api.get(`${P}/events?after=0`).expect(200)).body;
    const tail = (await p.at(fresh).get(`${P}/events?after=3&limit=1`).expect(200)).body;

    const sequences = (events: Json[]) => events.map((e) => (e['data'] as Json)['locationEventSequence']);
    expect(sequences(all.events)).toEqual([1, 2, 3, 4, 5]);
    expect(sequences(feed.events)).toEqual([3, 5]);
    expect(feed).toMatchObject({ nextAfter: 5, hasMore: false, oldestRetainedSequence: 1 });
    expect(sequences(tail.events)).toEqual([5]);
    expect(tail).toMatchObject({ nextAfter: 5, hasMore: false });
  });
});
