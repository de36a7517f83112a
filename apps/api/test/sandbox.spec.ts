import { createValidator, SIMULATED_OPERATIONS, sandboxOperations } from '@pis/contract';
import { expectEnvelope } from './support/envelope';
import { Harness } from './support/harness';
import { Receiver, verified } from './support/receiver';
import { B, P, reservation, type Json } from './support/wire';

/**
 * docs/reference/provider-api.md#sandbox: sandbox locations, test keys and the till simulator
 * under /api/provider/v1/sandbox, with in-process delivery so the simulator's events reach
 * a real receiver.
 */
let h: Harness;
let receiver: Receiver;
const validator = createValidator();
const S = `${P}/sandbox`;

beforeAll(async () => {
  receiver = await Receiver.start();
  h = await Harness.start({ WEBHOOK_RETRY_DELAYS_MS: '30,30', WEBHOOK_TIMEOUT_MS: '2000' });
  await h.runtime.start();
});
afterAll(async () => {
  await h?.stop();
  await receiver?.close();
});

const sorted = (events: Json[]) =>
  [...events].sort(
    (a, b) =>
      ((a['data'] as Json)['locationEventSequence'] as number) -
      ((b['data'] as Json)['locationEventSequence'] as number),
  );

describe('sandbox locations and test keys', () => {
  it('When a location is created with sandbox true, then it says so and its keys are test keys; a live one says false and gets live keys', async () => {
    const created = await h.operator
      .post(`${B}/locations`)
      .send({ name: 'Try-out', brand: 'chez', sandbox: true })
      .expect(201);
    const live = await h.operator.post(`${B}/locations`).send({ name: 'Real', brand: 'chez' }).expect(201);

    const testKey = await h.operator.post(`${B}/locations/${created.body.id}/api-keys`).expect(201);
    const liveKey = await h.operator.post(`${B}/locations/${live.body.id}/api-keys`).expect(201);

    expect(created.body).toMatchObject({ sandbox: true, currency: 'EUR' });
    expect(live.body.sandbox).toBe(false);
    expect(testKey.body.key).toMatch(/^chez_sk_test_[A-Za-z0-9]{32,}$/);
    expect(liveKey.body.key).toMatch(/^chez_sk_live_[A-Za-z0-9]{32,}$/);
  });

  it('When a test key calls the provider API, then it works as a live key does, on its own location only', async () => {
    const sandbox = await h.location({ sandbox: true, tables: 2 });
    const live = await h.location({ tables: 2 });

    await sandbox.api
      .post(`${P}/reservations`)
      .send(reservation({ externalId: 'same-id' }))
      .expect(201);
    await live.api
      .post(`${P}/reservations`)
      .send(reservation({ externalId: 'same-id' }))
      .expect(201);
    const seen = await sandbox.api
      .get(`${P}/reservations?from=2026-11-21T00:00:00Z&to=2026-11-22T00:00:00Z`)
      .expect(200);
    const walkIn = await sandbox.api.post(`${S}/orders`).send({ tableIds: [sandbox.tables[0]], covers: 2 });

    expect(seen.body.reservations).toHaveLength(1);
    expect(
      (await sandbox.api.get(`${P}/floorplan`).expect(200)).body.rooms[0].tables.map((t: Json) => t['id']),
    ).toEqual(sandbox.tables);
    expect(walkIn.status).toBe(201);
    expect(await h.openOrders(live)).toEqual([]);
    // A live location's table is unknown to the sandbox: the simulator cannot reach it.
    expectEnvelope(
      await sandbox.api.post(`${S}/orders`).send({ tableIds: [live.tables[0]], covers: 2 }),
      422,
      'unknown_table_id',
    );
  });

  it('When a key is presented in the other mode than its own (test written as live or the reverse), then it is 401', async () => {
    const sandbox = await h.location({ sandbox: true, plan: 'none' });
    const live = await h.location({ plan: 'none' });

    for (const key of [
      sandbox.key.replace('_sk_test_', '_sk_live_'),
      live.key.replace('_sk_live_', '_sk_test_'),
    ]) {
      expectEnvelope(await h.client(key).get(`${P}/webhook-deliveries`), 401, 'unauthorized');
      expectEnvelope(await h.client(key).post(`${S}/floorplan/publish`), 401, 'unauthorized');
    }
  });
});

describe('the till simulator', () => {
  it('When a live key calls any simulator operation, then 403 sandbox_only before its body is read, and nothing changes', async () => {
    const live = await h.location({ tables: 2 });
    const fakeOrder = '00000000-0000-4000-8000-000000000000';

    for (const op of sandboxOperations) {
      const path = op.path
        .replace('/api/provider/v1', P)
        .replace('{orderId}', fakeOrder)
        .replace('{itemId}', fakeOrder);
      const call = live.api[op.method](path);
      const res = op.body ? await call.set('Content-Type', 'application/json').send('{') : await call;
      expectEnvelope(res, 403, 'sandbox_only');
    }
    expect(await h.openOrders(live)).toEqual([]);
    expect((await live.api.get(`${P}/floorplan`).expect(200)).body.version).toBe(1);
  });

  it("When every simulated operation is listed, then each is a backoffice operation the simulator runs on the key's location", () => {
    expect(sandboxOperations.map((op) => op.path.replace(`${P}/sandbox`, ''))).toEqual([
      '/floorplan/publish',
      '/orders',
      '/orders',
      '/orders/{orderId}/items',
      '/orders/{orderId}/items/{itemId}/void',
      '/orders/{orderId}/discounts',
      '/orders/{orderId}/payments',
      '/orders/{orderId}/service-status',
      '/orders/{orderId}/move',
      '/orders/{orderId}/close',
      '/orders/{orderId}/void',
    ]);
    expect(SIMULATED_OPERATIONS).toHaveLength(sandboxOperations.length);
  });

  it("When a test key works a check through the simulator (item, void, discount, payment with tip, service status), then the order answers carry the check and the till's events follow", async () => {
    const loc = await h.location({ sandbox: true, plan: 'published', tables: 2 });
    const S = `${P}/sandbox`;
    const order = (
      await loc.api
        .post(`${S}/orders`)
        .send({ tableIds: [loc.tables[0]], covers: 2 })
        .expect(201)
    ).body;
    const item = (
      await loc.api
        .post(`${S}/orders/${order.id}/items`)
        .send({ label: 'Soup', amountMinor: 800, quantity: 2, taxRateBps: 1000 })
        .expect(200)
    ).body;
    const soupId = item.check.items[0].id as string;
    await loc.api.post(`${S}/orders/${order.id}/items`).send({ label: 'Wine', amountMinor: 900 }).expect(200);
    await loc.api.post(`${S}/orders/${order.id}/items/${soupId}/void`).expect(200);
    await loc.api
      .post(`${S}/orders/${order.id}/discounts`)
      .send({ label: 'Regulars', amountMinor: 100 })
      .expect(200);
    const paid = (
      await loc.api
        .post(`${S}/orders/${order.id}/payments`)
        .send({ amountMinor: 800, tipMinor: 50, tender: 'card' })
        .expect(200)
    ).body;
    const status = (
      await loc.api
        .post(`${S}/orders/${order.id}/service-status`)
        .send({ status: 'bill_requested' })
        .expect(200)
    ).body;

    expect(paid.check).toMatchObject({
      subtotalMinor: 900,
      discountMinor: 100,
      totalMinor: 800,
      tipMinor: 50,
      paidMinor: 800,
      balanceMinor: 0,
    });
    expect(status.serviceStatus).toBe('bill_requested');
  });

  it('When a test key publishes, opens a walk-in, adds an item, moves, closes and voids, then every event reaches its verified receiver in order', async () => {
    const loc = await h.location({ sandbox: true, plan: 'draft', tables: 3 });
    const path = `/hooks/${loc.id}`;
    const { secret } = (
      await loc.api
        .put(`${P}/webhook-endpoint`)
        .send({ url: `${receiver.origin}${path}` })
        .expect(200)
    ).body as { secret: string };
    const [t1, t2, t3] = loc.tables;

    const published = await loc.api.post(`${S}/floorplan/publish`).expect(200);
    const opened = await loc.api
      .post(`${S}/orders`)
      .send({ tableIds: [t1], covers: 2 })
      .expect(201);
    const orderId = opened.body.id as string;
    const withItem = await loc.api
      .post(`${S}/orders/${orderId}/items`)
      .send({ label: 'Negroni', amountMinor: 1200, quantity: 2 })
      .expect(200);
    await loc.api
      .post(`${S}/orders/${orderId}/move`)
      .send({ tableIds: [t2] })
      .expect(200);
    const open = await loc.api.get(`${S}/orders?status=open`).expect(200);
    const closed = await loc.api.post(`${S}/orders/${orderId}/close`).expect(200);
    const other = await loc.api
      .post(`${S}/orders`)
      .send({ tableIds: [t3], covers: 4 })
      .expect(201);
    const voided = await loc.api.post(`${S}/orders/${other.body.id}/void`).expect(200);
    expectEnvelope(await loc.api.post(`${S}/orders/${orderId}/close`), 422, 'validation_failed');
    expectEnvelope(
      await loc.api.post(`${S}/orders/00000000-0000-4000-8000-000000000000/void`),
      404,
      'not_found',
    );

    expect(published.body.version).toBe(1);
    expect(withItem.body).toMatchObject({ spendMinor: 2400, status: 'open', tableIds: [t1] });
    expect(open.body.orders.map((o: Json) => o['id'])).toEqual([orderId]);
    expect(closed.body.status).toBe('closed');
    expect(voided.body.status).toBe('voided');
    const events = await receiver.until(() => {
      const got = receiver.at(path).map((r) => verified(r, secret));
      return got.length >= 9 ? sorted(got) : undefined;
    });
    expect(
      events.map((e) => [
        e['type'],
        (e['data'] as Json)['tableId'] ?? null,
        (e['data'] as Json)['reason'] ?? null,
      ]),
    ).toEqual([
      ['floorplan.published', null, null],
      ['table.occupied', t1, null],
      ['table.spend_updated', null, null],
      ['table.freed', t1, 'moved'],
      ['table.occupied', t2, null],
      ['table.freed', t2, 'closed'],
      ['order.closed', null, null],
      ['table.occupied', t3, null],
      ['table.freed', t3, 'voided'],
    ]);
    for (const event of events) expect(validator.webhookEventBody(event).ok).toBe(true);
  });
});
