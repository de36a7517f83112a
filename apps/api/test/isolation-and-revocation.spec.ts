import { expectEnvelope } from './support/envelope';
import { Harness, type TestLocation } from './support/harness';
import { P, nextUpdatedAt, reservation } from './support/wire';

/**
 * docs/reference/provider-api.md#location-isolation: a key never sees, changes or collides with
 * another location's reservations, tables, orders or events;
 * docs/reference/provider-api.md#authentication: a revoked key is refused from then on.
 */
let h: Harness;
beforeAll(async () => {
  h = await Harness.start();
});
afterAll(async () => {
  await h?.stop();
});

const WINDOW = 'from=2026-11-21T00:00Z&to=2026-11-22T00:00Z';

describe('Location isolation', () => {
  let first: TestLocation;
  let second: TestLocation;
  beforeEach(async () => {
    first = await h.location();
    second = await h.location();
  });

  it("When the first location holds reservations, then the second's list of the same window is empty", async () => {
    await first.api.post(`${P}/reservations`).send(reservation()).expect(201);
    await first.api
      .post(`${P}/reservations`)
      .send(reservation({ status: 'seated', tableIds: [first.tables[0]] }))
      .expect(201);

    const res = await second.api.get(`${P}/reservations?${WINDOW}`);

    expect(res.status).toBe(200);
    expect(res.body.reservations).toEqual([]);
    expect((await first.api.get(`${P}/reservations?${WINDOW}`).expect(200)).body.reservations).toHaveLength(
      2,
    );
  });

  it("When the second location PUTs the first's externalId, then 404 unknown_reservation and the first's is untouched", async () => {
    const body = reservation();
    const created = await first.api.post(`${P}/reservations`).send(body).expect(201);

    const res = await second.api
      .put(`${P}/reservations/${body['externalId']}`)
      .send({ ...body, status: 'cancelled', updatedAt: nextUpdatedAt() });

    expectEnvelope(res, 404, 'unknown_reservation');
    const listed = await first.api.get(`${P}/reservations?${WINDOW}`).expect(200);
    expect(listed.body.reservations).toEqual([created.body.reservation]);
  });

  it('When both locations create the same externalId, then both are created, distinct, each seen only by its own key', async () => {
    const body = reservation();

    const a = await first.api.post(`${P}/reservations`).send({ ...body, partyName: 'First' });
    const b = await second.api.post(`${P}/reservations`).send({ ...body, partyName: 'Second' });

    expect([a.status, b.status]).toEqual([201, 201]);
    expect(a.body.reservation.id).not.toBe(b.body.reservation.id);
    const put = await second.api
      .put(`${P}/reservations/${body['externalId']}`)
      .send({ ...body, partyName: 'Second again', updatedAt: nextUpdatedAt() })
      .expect(200);
    expect(put.body.outcome).toBe('applied');
    const [listedA, listedB] = await Promise.all([
      first.api.get(`${P}/reservations?${WINDOW}`).expect(200),
      second.api.get(`${P}/reservations?${WINDOW}`).expect(200),
    ]);
    expect(listedA.body.reservations.map((r: { partyName: string }) => r.partyName)).toEqual(['First']);
    expect(listedB.body.reservations.map((r: { partyName: string }) => r.partyName)).toEqual([
      'Second again',
    ]);
  });

  it("When the second location names the first's tables, then 422 unknown_table_id, through the API and the till", async () => {
    const walkIn = await h.operator
      .post(second.ops('/orders'))
      .send({ tableIds: [first.tables[0]], covers: 2 });
    const seat = await second.api
      .post(`${P}/reservations`)
      .send(reservation({ status: 'seated', tableIds: [first.tables[0]] }));
    const order = await h.walkIn(second, [second.tables[0]!]);
    const move = await h.operator
      .post(second.ops(`/orders/${order['id']}/move`))
      .send({ tableIds: [first.tables[1]] });

    expectEnvelope(walkIn, 422, 'unknown_table_id');
    expectEnvelope(seat, 422, 'unknown_table_id');
    expectEnvelope(move, 422, 'unknown_table_id');
    expect(await h.openOrders(first)).toEqual([]);
  });

  it("When the first location's table is taken, then the second's seating is unaffected and sees only its own plan", async () => {
    await h.walkIn(first, [first.tables[0]!]);

    const seat = await second.api
      .post(`${P}/reservations`)
      .send(reservation({ status: 'seated', tableIds: [second.tables[0]] }));
    const plan = await second.api.get(`${P}/floorplan`).expect(200);

    expect(seat.status).toBe(201);
    const ids = plan.body.rooms.flatMap((r: { tables: { id: string }[] }) => r.tables.map((t) => t.id));
    expect(ids.sort()).toEqual([...second.tables].sort());
  });

  it("When the operator works on one location's orders through another location's path, then 404 not_found", async () => {
    const order = await h.walkIn(first, [first.tables[0]!]);

    for (const action of ['close', 'void']) {
      expectEnvelope(await h.operator.post(second.ops(`/orders/${order['id']}/${action}`)), 404, 'not_found');
    }
    expectEnvelope(
      await h.operator.post(second.ops(`/orders/${order['id']}/items`)).send({ label: 'x', amountMinor: 1 }),
      404,
      'not_found',
    );
    expectEnvelope(
      await h.operator.patch(second.ops(`/tables/${first.tables[0]}`)).send({ label: 'x' }),
      404,
      'not_found',
    );
    expect((await h.openOrders(first)).map((o) => o['id'])).toEqual([order['id']]);
    expect(await h.openOrders(second)).toEqual([]);
  });

  it('When each location registers a webhook endpoint, then each reads, rotates and deletes only its own', async () => {
    const none = await h.location({ plan: 'none' });
    await first.api
      .put(`${P}/webhook-endpoint`)
      .send({ url: 'https://hooks.example.test/first', events: ['floorplan.published'] })
      .expect(200);

    expectEnvelope(await second.api.get(`${P}/webhook-endpoint`), 404, 'not_found');
    expectEnvelope(await second.api.post(`${P}/webhook-endpoint/rotate-secret`), 404, 'not_found');
    expectEnvelope(await second.api.delete(`${P}/webhook-endpoint`), 404, 'not_found');
    const own = await second.api
      .put(`${P}/webhook-endpoint`)
      .send({ url: 'https://hooks.example.test/second', events: ['floorplan.published'] })
      .expect(200);
    await second.api.delete(`${P}/webhook-endpoint`).expect(204);

    const firsts = await first.api.get(`${P}/webhook-endpoint`).expect(200);
    expect(firsts.body.url).toBe('https://hooks.example.test/first');
    expect(firsts.body.secret).not.toBe(own.body.secret);
    expectEnvelope(await none.api.get(`${P}/webhook-endpoint`), 404, 'not_found');
  });

  it('When a location has no plan, then importing is not refused because another location has one', async () => {
    const fresh = await h.location({ plan: 'none' });

    const res = await fresh.api
      .post(`${P}/floorplan/import`)
      .send({ rooms: [{ externalId: 'R1', name: 'R', tables: [] }] });

    expect(res.status).toBe(201);
  });
});

describe('Revoked keys', () => {
  it('When a key that was just used is revoked, then the very next request with it is 401, and other keys of the location still work', async () => {
    const loc = await h.location();
    const spare = await h.operator.post(loc.ops('/api-keys')).expect(201);
    await loc.api.get(`${P}/floorplan`).expect(200);

    await h.operator.delete(loc.ops(`/api-keys/${loc.keyId}`)).expect(204);

    for (const call of [
      loc.api.get(`${P}/floorplan`),
      loc.api.post(`${P}/reservations`).send(reservation()),
      loc.api.get(`${P}/reservations?${WINDOW}`),
      loc.api.put(`${P}/webhook-endpoint`).send({ url: 'https://hooks.example.test/x' }),
    ]) {
      const res = await call;
      expectEnvelope(res, 401, 'unauthorized');
      expect(res.headers['www-authenticate']).toBe('Bearer');
    }
    await h.client(spare.body.key).get(`${P}/floorplan`).expect(200);
    expect(
      (await h.client(spare.body.key).get(`${P}/reservations?${WINDOW}`).expect(200)).body.reservations,
    ).toEqual([]);
  });

  it('When a key is revoked through one API process, then another process that had it cached refuses it too', async () => {
    // A second API process on the same database, with its revocation listener started
    // (REDIS_URL only keeps it from delivering webhooks in-process; it never connects to Redis).
    const other = await Harness.beside(h, { REDIS_URL: 'redis://127.0.0.1:6379' });
    try {
      await other.runtime.start();
      const loc = await h.location();
      const elsewhere = other.client(loc.key);
      await elsewhere.get(`${P}/floorplan`).expect(200);

      await h.operator.delete(loc.ops(`/api-keys/${loc.keyId}`)).expect(204);

      const deadline = Date.now() + 3_000;
      let status = 200;
      while (status !== 401 && Date.now() < deadline) {
        status = (await elsewhere.get(`${P}/floorplan`)).status;
        if (status !== 401) await new Promise((resolve) => setTimeout(resolve, 25));
      }
      expect(status).toBe(401);
    } finally {
      await other.stop();
    }
  });
});
