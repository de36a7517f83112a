import { expectEnvelope } from './support/envelope';
import { Harness, type TestLocation } from './support/harness';
import { P, planImport, reservation, type Json } from './support/wire';

/**
 * Concurrent requests over HTTP on real PostgreSQL
 * (docs/reference/provider-api.md#atomicity-and-concurrency): writes to one reservation serialise
 * and the newest `updatedAt` wins; a table holds at most one open order; an externalId is created
 * once.
 */
let h: Harness;
beforeAll(async () => {
  h = await Harness.start();
});
afterAll(async () => {
  await h?.stop();
});

const WINDOW = 'from=2026-11-21T00:00Z&to=2026-11-22T00:00Z';

function shuffled<T>(items: T[]): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i -= 1) {
    const j = Math.floor(Math.random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** Every table of the location carries at most one open order. */
async function expectNoDoubleOccupancy(loc: TestLocation): Promise<Json[]> {
  const open = await h.openOrders(loc);
  const tables = open.flatMap((o) => o['tableIds'] as string[]);
  expect(new Set(tables).size).toBe(tables.length);
  return open;
}

it('When 50 PUTs with shuffled updatedAt race on one reservation, then every one answers 200 and the newest is stored', async () => {
  const loc = await h.location({ plan: 'none' });
  const base = reservation({ updatedAt: '2026-11-20T10:00:00.000000Z' });
  await loc.api.post(`${P}/reservations`).send(base).expect(201);
  // 1 µs apart: the race is decided at the precision PostgreSQL keeps.
  const writes = Array.from({ length: 50 }, (_, i) => ({
    ...base,
    partyName: `w-${i + 1}`,
    updatedAt: `2026-11-20T10:00:00.${String(i + 1).padStart(6, '0')}Z`,
  }));

  const order = shuffled(writes);
  const responses = await Promise.all(
    order.map((body) => loc.api.put(`${P}/reservations/${base['externalId']}`).send(body)),
  );

  expect(responses.map((r) => r.status)).toEqual(responses.map(() => 200));
  const rank = (name: unknown) => Number(String(name).slice(2));
  responses.forEach((res, i) => {
    const own = rank(order[i]!.partyName);
    const answered = rank(res.body.reservation.partyName);
    // Applied answers with itself; stale answers with what was stored, which was newer.
    if (res.body.outcome === 'applied') expect(answered).toBe(own);
    else expect(answered).toBeGreaterThan(own);
  });
  expect(responses[order.findIndex((w) => w.partyName === 'w-50')]!.body.outcome).toBe('applied');
  const listed = await loc.api.get(`${P}/reservations?${WINDOW}`).expect(200);
  expect(listed.body.reservations).toHaveLength(1);
  expect(listed.body.reservations[0].partyName).toBe('w-50');
  // The newest write is stale when sent again: nothing newer than it was ever stored.
  const retry = await loc.api.put(`${P}/reservations/${base['externalId']}`).send(writes[49]).expect(200);
  expect(retry.body.outcome).toBe('stale');
  const older = await loc.api.put(`${P}/reservations/${base['externalId']}`).send(writes[48]).expect(200);
  expect(older.body).toMatchObject({ outcome: 'stale', reservation: { partyName: 'w-50' } });
});

it('When 20 reservations are seated at once on one table, then exactly one is applied and 19 get 409 naming the winner', async () => {
  const loc = await h.location({ tables: 2 });
  const bodies = Array.from({ length: 20 }, () => reservation());
  for (const body of bodies) await loc.api.post(`${P}/reservations`).send(body).expect(201);

  const responses = await Promise.all(
    bodies.map((body) =>
      loc.api
        .put(`${P}/reservations/${body['externalId']}`)
        .send({ ...body, status: 'seated', tableIds: [loc.tables[0]], updatedAt: '2026-11-21T19:00:00Z' }),
    ),
  );

  const applied = responses.filter((r) => r.status === 200);
  const refused = responses.filter((r) => r.status === 409);
  expect(applied).toHaveLength(1);
  expect(refused).toHaveLength(19);
  const winner = applied[0]!.body.reservation;
  expect(applied[0]!.body.outcome).toBe('applied');
  for (const res of refused) {
    expectEnvelope(res, 409, 'table_occupied');
    expect(res.body.error.occupiedBy).toEqual({
      orderId: winner.linkedOrderId,
      reservationExternalId: winner.externalId,
    });
  }
  const open = await expectNoDoubleOccupancy(loc);
  expect(open).toEqual([
    expect.objectContaining({ id: winner.linkedOrderId, reservationExternalId: winner.externalId }),
  ]);
  const listed = await loc.api.get(`${P}/reservations?${WINDOW}`).expect(200);
  expect(listed.body.reservations.filter((r: Json) => r['status'] === 'seated')).toHaveLength(1);
});

it('When a seat races a walk-in on the same table, round after round, then one wins, the other gets 409 naming it, and never two open orders', async () => {
  const rounds = 8;
  const loc = await h.location({ tables: rounds });
  const bodies = Array.from({ length: rounds }, () => reservation());
  for (const body of bodies) await loc.api.post(`${P}/reservations`).send(body).expect(201);

  const winners = { seat: 0, walkIn: 0 };
  for (let round = 0; round < rounds; round += 1) {
    const table = loc.tables[round]!;
    const body = bodies[round]!;
    const [seat, walkIn] = await Promise.all([
      loc.api
        .put(`${P}/reservations/${body['externalId']}`)
        .send({ ...body, status: 'seated', tableIds: [table], updatedAt: '2026-11-21T19:00:00Z' }),
      h.operator.post(loc.ops('/orders')).send({ tableIds: [table], covers: 2 }),
    ]);

    expect([
      [200, 409],
      [409, 201],
    ]).toContainEqual([seat.status, walkIn.status]);
    if (seat.status === 200) {
      expect(walkIn.status).toBe(409);
      expect(walkIn.body.error.occupiedBy).toEqual({
        orderId: seat.body.reservation.linkedOrderId,
        reservationExternalId: body['externalId'],
      });
      winners.seat += 1;
    } else {
      expectEnvelope(seat, 409, 'table_occupied');
      expect(seat.body.error.occupiedBy).toEqual({ orderId: walkIn.body.id, reservationExternalId: null });
      winners.walkIn += 1;
    }
    const onTable = (await expectNoDoubleOccupancy(loc)).filter((o) =>
      (o['tableIds'] as string[]).includes(table),
    );
    expect(onTable).toHaveLength(1);
  }
  expect(winners.seat + winners.walkIn).toBe(rounds);
});

it('When concurrent POSTs create one externalId, then one 201 and the rest 409 duplicate_reservation', async () => {
  const loc = await h.location({ plan: 'none' });
  const body = reservation();

  const responses = await Promise.all(
    Array.from({ length: 12 }, (_, i) =>
      loc.api.post(`${P}/reservations`).send({ ...body, partyName: `p-${i}` }),
    ),
  );

  expect(responses.filter((r) => r.status === 201)).toHaveLength(1);
  for (const res of responses.filter((r) => r.status !== 201))
    expectEnvelope(res, 409, 'duplicate_reservation');
  const created = responses.find((r) => r.status === 201)!.body.reservation;
  const listed = await loc.api.get(`${P}/reservations?${WINDOW}`).expect(200);
  expect(listed.body.reservations).toEqual([created]);
});

it('When concurrent seated POSTs of one externalId race for one table, then one order opens and the rest are duplicates', async () => {
  const loc = await h.location({ tables: 1 });
  const body = reservation({ status: 'seated', tableIds: [loc.tables[0]] });

  const responses = await Promise.all(
    Array.from({ length: 8 }, () => loc.api.post(`${P}/reservations`).send(body)),
  );

  expect(responses.filter((r) => r.status === 201)).toHaveLength(1);
  for (const res of responses.filter((r) => r.status !== 201))
    expectEnvelope(res, 409, 'duplicate_reservation');
  expect(await expectNoDoubleOccupancy(loc)).toHaveLength(1);
});

it('When two seated reservations try to swap tables at the same moment, round after round, then both are refused and nothing deadlocks', async () => {
  const loc = await h.location({ tables: 2 });
  const a = reservation({ status: 'seated', tableIds: [loc.tables[0]] });
  const b = reservation({ status: 'seated', tableIds: [loc.tables[1]] });
  await loc.api.post(`${P}/reservations`).send(a).expect(201);
  await loc.api.post(`${P}/reservations`).send(b).expect(201);

  for (let round = 1; round <= 5; round += 1) {
    const updatedAt = `2026-11-21T19:0${round}:00Z`;
    const [moveA, moveB] = await Promise.all([
      loc.api
        .put(`${P}/reservations/${a['externalId']}`)
        .send({ ...a, tableIds: [loc.tables[1]], updatedAt }),
      loc.api
        .put(`${P}/reservations/${b['externalId']}`)
        .send({ ...b, tableIds: [loc.tables[0]], updatedAt }),
    ]);

    expectEnvelope(moveA, 409, 'table_occupied');
    expectEnvelope(moveB, 409, 'table_occupied');
  }
  const open = await expectNoDoubleOccupancy(loc);
  expect(open.map((o) => o['tableIds'])).toEqual(expect.arrayContaining([[loc.tables[0]], [loc.tables[1]]]));
});

describe('floor plan and webhook endpoint races', () => {
  it('When six first imports race, then one creates the draft and five get 409 draft_not_empty', async () => {
    const loc = await h.location({ plan: 'none' });

    const responses = await Promise.all(
      Array.from({ length: 6 }, () => loc.api.post(`${P}/floorplan/import`).send(planImport({ tables: 2 }))),
    );

    expect(responses.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409, 409]);
    for (const res of responses.filter((r) => r.status === 409)) expectEnvelope(res, 409, 'draft_not_empty');
    const working = await h.operator.get(loc.ops('/floorplan/working')).expect(200);
    expect(working.body.rooms).toHaveLength(1);
  });

  it('When six replaceDraft imports race, then the stored draft is exactly the mapping one of them answered', async () => {
    const loc = await h.location({ plan: 'draft' });

    const responses = await Promise.all(
      Array.from({ length: 6 }, () =>
        loc.api
          .post(`${P}/floorplan/import`)
          .send(planImport({ tables: 3, replaceDraft: true }))
          .expect(201),
      ),
    );

    const working = await h.operator.get(loc.ops('/floorplan/working')).expect(200);
    const stored = working.body.rooms
      .flatMap((r: { tables: { id: string }[] }) => r.tables.map((t) => t.id))
      .sort();
    expect(stored).toHaveLength(3);
    const answered = responses.map((r) => r.body.mapping.map((m: { tableId: string }) => m.tableId).sort());
    expect(answered).toContainEqual(stored);
  });

  it('When six publishes race, then each gets its own version, 1 to 6, and the provider reads version 6', async () => {
    const loc = await h.location({ plan: 'draft' });

    const responses = await Promise.all(
      Array.from({ length: 6 }, () => h.operator.post(loc.ops('/floorplan/publish')).expect(200)),
    );

    expect(responses.map((r) => r.body.version).sort()).toEqual([1, 2, 3, 4, 5, 6]);
    expect((await loc.api.get(`${P}/floorplan`).expect(200)).body.version).toBe(6);
  });

  it('When six first registrations of the webhook endpoint race, then all answer one endpoint with one secret', async () => {
    const loc = await h.location({ plan: 'none' });

    const responses = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        loc.api
          .put(`${P}/webhook-endpoint`)
          .send({ url: `https://hooks.example.test/${i}` })
          .expect(200),
      ),
    );

    const stored = await loc.api.get(`${P}/webhook-endpoint`).expect(200);
    expect(new Set(responses.map((r) => r.body.secret))).toEqual(new Set([stored.body.secret]));
    expect(new Set(responses.map((r) => r.body.createdAt))).toEqual(new Set([stored.body.createdAt]));
  });
});
