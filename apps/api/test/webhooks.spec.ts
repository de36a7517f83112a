import { createValidator } from '@pis/contract';
import { expectEnvelope } from './support/envelope';
import { Harness, type TestLocation } from './support/harness';
import { Receiver, verified, type Received } from './support/receiver';
import { P, UTC_MILLIS, reservation, type Json } from './support/wire';

/**
 * docs/reference/webhooks.md through the API, in-process delivery (no REDIS_URL): the provider
 * registers an endpoint, acts, and a real receiver on 127.0.0.1 gets signed events that
 * the reference `standardwebhooks` verifier accepts.
 */
let h: Harness;
let receiver: Receiver;
const validator = createValidator();

beforeAll(async () => {
  receiver = await Receiver.start();
  h = await Harness.start({ WEBHOOK_RETRY_DELAYS_MS: '30,30', WEBHOOK_TIMEOUT_MS: '2000' });
  await h.runtime.start();
});
afterAll(async () => {
  await h?.stop();
  await receiver?.close();
});

interface Hooked {
  loc: TestLocation;
  path: string;
  secret: string;
  /** Verified event bodies received so far, in arrival order, one per webhook-id. */
  events(): Json[];
  waitFor(count: number, what?: string): Promise<Json[]>;
}

async function hooked(plan: 'draft' | 'published' = 'published', events?: string[]): Promise<Hooked> {
  const loc = await h.location({ plan, tables: 3 });
  // The relay fans an event out to the endpoints that exist when it relays, not when the
  // event happened: wait until the publish made while creating the location is relayed, so
  // an endpoint registered now receives only what the test does next.
  await relayed(loc);
  const path = `/hooks/${loc.id}`;
  const registered = await loc.api
    .put(`${P}/webhook-endpoint`)
    .send({ url: `${receiver.origin}${path}`, ...(events ? { events } : {}) })
    .expect(200);
  const secret = registered.body.secret as string;
  const bodies = () => {
    const seen = new Set<string>();
    const out: Json[] = [];
    for (const request of receiver.at(path)) {
      const id = String(request.headers['webhook-id']);
      if (seen.has(id)) continue;
      seen.add(id);
      out.push(verified(request, secret));
    }
    return out;
  };
  return {
    loc,
    path,
    secret,
    events: bodies,
    waitFor: (count, what = `${count} event(s)`) =>
      receiver.until(
        () => {
          const got = bodies();
          return got.length >= count ? got : undefined;
        },
        10_000,
        what,
      ),
  };
}

/** Events in locationEventSequence order, the order a provider applies them in. */
const hookedEvents = (events: Json[]) =>
  [...events].sort(
    (a, b) =>
      ((a['data'] as Json)['locationEventSequence'] as number) -
      ((b['data'] as Json)['locationEventSequence'] as number),
  );

const sequences = (events: Json[]) =>
  events.map((e) => (e['data'] as Json)['locationEventSequence'] as number);

it('When a reservation is seated, then the receiver gets a verifiable table.occupied carrying the data the reference lists', async () => {
  const { loc, path, waitFor } = await hooked();
  const body = reservation({ status: 'seated', tableIds: [loc.tables[0]], covers: 3 });

  const seated = await loc.api.post(`${P}/reservations`).send(body).expect(201);

  const [event] = await waitFor(1, 'table.occupied');
  expect(event).toEqual({
    type: 'table.occupied',
    timestamp: expect.stringMatching(UTC_MILLIS),
    data: {
      tableId: loc.tables[0],
      orderId: seated.body.reservation.linkedOrderId,
      reservationExternalId: body['externalId'],
      covers: 3,
      occurredAt: event!['timestamp'],
      locationId: loc.id,
      locationEventSequence: expect.any(Number),
    },
  });
  expect(validator.webhookEventBody(event)).toEqual({ ok: true, value: event });
  const request = receiver.at(path)[0]!;
  expect(request.headers['content-type']).toMatch(/^application\/json/);
  expect(request.headers['webhook-id']).toEqual(expect.any(String));
  expect(request.headers['webhook-timestamp']).toMatch(/^\d+$/);
  expect(Math.abs(Number(request.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(60);
  expect(request.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+={0,2}$/);
});

it('When the operator publishes, then the receiver gets floorplan.published with the version, publishedAt and changes of the publish', async () => {
  const { loc, waitFor } = await hooked('draft');

  const published = await h.operator.post(loc.ops('/floorplan/publish')).expect(200);
  await h.operator
    .patch(loc.ops(`/tables/${loc.tables[1]}`))
    .send({ label: 'Window' })
    .expect(200);
  await h.operator
    .patch(loc.ops(`/tables/${loc.tables[2]}`))
    .send({ active: false })
    .expect(200);
  const republished = await h.operator.post(loc.ops('/floorplan/publish')).expect(200);

  const [first, second] = hookedEvents(await waitFor(2, 'two floorplan.published'));
  expect(first).toEqual({
    type: 'floorplan.published',
    timestamp: published.body.publishedAt,
    data: {
      version: 1,
      publishedAt: published.body.publishedAt,
      changes: {
        added: expect.arrayContaining(loc.tables),
        deactivated: [],
        reactivated: [],
        relabelled: [],
        updated: [],
      },
      locationId: loc.id,
      locationEventSequence: expect.any(Number),
    },
  });
  expect(((first!['data'] as Json)['changes'] as Json)['added']).toHaveLength(loc.tables.length);
  expect(second).toEqual({
    type: 'floorplan.published',
    timestamp: republished.body.publishedAt,
    data: {
      version: 2,
      publishedAt: republished.body.publishedAt,
      changes: {
        added: [],
        deactivated: [loc.tables[2]],
        reactivated: [],
        relabelled: [{ tableId: loc.tables[1], from: expect.any(String), to: 'Window' }],
        updated: [],
      },
      locationId: loc.id,
      locationEventSequence: expect.any(Number),
    },
  });
  expect(validator.webhookEventBody(second)).toEqual({ ok: true, value: second });
});

it('When the till opens, bills, moves and closes an order, then every event arrives verified, in a strictly increasing sequence', async () => {
  const { loc, waitFor } = await hooked();
  const order = await h.walkIn(loc, [loc.tables[0]!], 2);
  await h.operator
    .post(loc.ops(`/orders/${order['id']}/items`))
    .send({ label: 'Wine', amountMinor: 2500, quantity: 2 })
    .expect(200);
  await h.operator
    .post(loc.ops(`/orders/${order['id']}/move`))
    .send({ tableIds: [loc.tables[1]] })
    .expect(200);
  await h.operator.post(loc.ops(`/orders/${order['id']}/close`)).expect(200);

  const events = await waitFor(6);

  const seq = sequences(events).sort((a, b) => a - b);
  for (let i = 1; i < seq.length; i += 1) expect(seq[i]).toBeGreaterThan(seq[i - 1]!);
  const ordered = [...events].sort((a, b) => sequences([a])[0]! - sequences([b])[0]!);
  expect(ordered.map((e) => [e['type'], (e['data'] as Json)['reason'] ?? null])).toEqual([
    ['table.occupied', null],
    ['table.spend_updated', null],
    ['table.freed', 'moved'],
    ['table.occupied', null],
    ['table.freed', 'closed'],
    ['order.closed', null],
  ]);
  expect(ordered[1]!['data']).toEqual({
    tableIds: [loc.tables[0]],
    orderId: order['id'],
    reservationExternalId: null,
    spendMinor: 5000,
    currency: 'EUR',
    covers: 2,
    occurredAt: expect.stringMatching(UTC_MILLIS),
    totals: {
      subtotalMinor: 5000,
      discountMinor: 0,
      taxMinor: 0,
      tipMinor: 0,
      paidMinor: 0,
      balanceMinor: 5000,
    },
    locationId: loc.id,
    locationEventSequence: expect.any(Number),
  });
  expect(ordered[2]!['data']).toMatchObject({
    tableId: loc.tables[0],
    orderId: order['id'],
    reason: 'moved',
  });
  expect(ordered[3]!['data']).toMatchObject({ tableId: loc.tables[1], orderId: order['id'], covers: 2 });
  for (const event of events) expect(validator.webhookEventBody(event).ok).toBe(true);
});

it('When the till writes a check, sets the service status and closes, then spend_updated carries the totals of each answer, status_changed and order.closed arrive verified', async () => {
  const { loc, waitFor } = await hooked();
  const body = reservation({
    status: 'seated',
    tableIds: [loc.tables[0]],
    covers: 2,
    prepayment: { prepaidMinor: 1500, currency: 'EUR' },
  });
  const orderId = (await loc.api.post(`${P}/reservations`).send(body).expect(201)).body.reservation
    .linkedOrderId;
  const till = (path: string, send: Json) =>
    h.operator
      .post(loc.ops(`/orders/${orderId}${path}`))
      .send(send)
      .expect(200);
  const answers = [
    await till('/items', { label: 'Menu', amountMinor: 3500, quantity: 2, taxRateBps: 1000, course: 'main' }),
    await till('/discounts', { label: 'Regulars', amountMinor: 600 }),
    await till('/payments', { amountMinor: 4900, tipMinor: 500, tender: 'card' }),
  ].map((res) => res.body.check as Json);
  await till('/service-status', { status: 'paid' });
  const closed = (await h.operator.post(loc.ops(`/orders/${orderId}/close`)).expect(200)).body;

  const events = hookedEvents(await waitFor(8));

  expect(events.map((e) => e['type'])).toEqual([
    'table.occupied',
    'table.spend_updated',
    'table.spend_updated',
    'table.spend_updated',
    'table.spend_updated',
    'table.status_changed',
    'table.freed',
    'order.closed',
  ]);
  const totalsOf = (check: Json) => {
    const { subtotalMinor, discountMinor, taxMinor, tipMinor, paidMinor, balanceMinor } = check;
    return { subtotalMinor, discountMinor, taxMinor, tipMinor, paidMinor, balanceMinor };
  };
  // The deposit opened the check; then one spend_updated per write, each with that answer's totals.
  expect((events[1]!['data'] as Json)['totals']).toMatchObject({ paidMinor: 1500, balanceMinor: -1500 });
  events.slice(2, 5).forEach((event, n) => {
    expect(event['data']).toMatchObject({
      spendMinor: answers[n]!['totalMinor'],
      totals: totalsOf(answers[n]!),
    });
  });
  expect(events[5]!['data']).toMatchObject({
    orderId,
    serviceStatus: 'paid',
    reservationExternalId: body['externalId'],
  });
  expect(events[7]).toEqual({
    type: 'order.closed',
    timestamp: closed.closedAt,
    data: {
      orderId,
      reservationExternalId: body['externalId'],
      tableIds: [loc.tables[0]],
      covers: 2,
      currency: 'EUR',
      openedAt: closed.openedAt,
      closedAt: closed.closedAt,
      check: closed.check,
      locationId: loc.id,
      locationEventSequence: expect.any(Number),
    },
  });
  expect(closed.check).toMatchObject({ totalMinor: 6400, paidMinor: 6400, tipMinor: 500, balanceMinor: 0 });
  for (const event of events) expect(validator.webhookEventBody(event)).toEqual({ ok: true, value: event });
});

it('When the provider moves a seated reservation and the till voids its order, then freed (moved), occupied, spend_updated and freed (voided) follow', async () => {
  const hook = await hooked();
  const { loc } = hook;
  const body = reservation({ status: 'seated', tableIds: [loc.tables[0]], covers: 2 });
  const seated = await loc.api.post(`${P}/reservations`).send(body).expect(201);
  const orderId = seated.body.reservation.linkedOrderId;
  await loc.api
    .put(`${P}/reservations/${body['externalId']}`)
    .send({ ...body, tableIds: [loc.tables[1]], covers: 4, updatedAt: '2026-11-21T19:05:00Z' })
    .expect(200);
  await loc.api
    .put(`${P}/reservations/${body['externalId']}`)
    .send({ ...body, status: 'cancelled', tableIds: [loc.tables[1]], updatedAt: '2026-11-21T19:10:00Z' })
    .expect(200);
  await h.operator.post(loc.ops(`/orders/${orderId}/void`)).expect(200);

  await hook.waitFor(5);
  // Cancelling sends nothing: wait a little for any event it would wrongly have caused.
  await new Promise((resolve) => setTimeout(resolve, 200));

  const ordered = hookedEvents(hook.events()).map((e) => ({ type: e['type'], ...(e['data'] as Json) }));
  const externalId = body['externalId'];
  expect(ordered).toEqual([
    expect.objectContaining({
      type: 'table.occupied',
      tableId: loc.tables[0],
      orderId,
      reservationExternalId: externalId,
      covers: 2,
    }),
    expect.objectContaining({
      type: 'table.freed',
      tableId: loc.tables[0],
      orderId,
      reservationExternalId: externalId,
      reason: 'moved',
    }),
    expect.objectContaining({
      type: 'table.occupied',
      tableId: loc.tables[1],
      orderId,
      reservationExternalId: externalId,
      covers: 4,
    }),
    expect.objectContaining({
      type: 'table.spend_updated',
      tableIds: [loc.tables[1]],
      orderId,
      covers: 4,
      spendMinor: 0,
    }),
    expect.objectContaining({
      type: 'table.freed',
      tableId: loc.tables[1],
      orderId,
      reservationExternalId: externalId,
      reason: 'voided',
    }),
  ]);
});

it('When deliveries have succeeded, then the provider lists them newest first with their attempts', async () => {
  const { loc, waitFor } = await hooked();
  await h.walkIn(loc, [loc.tables[0]!]);
  await h.walkIn(loc, [loc.tables[1]!]);
  await waitFor(2);

  const res = await eventually(async () => {
    const r = await loc.api.get(`${P}/webhook-deliveries?status=succeeded`).expect(200);
    return r.body.deliveries.length === 2 ? r : undefined;
  });

  expect(res.body.nextCursor).toBeNull();
  const [newest, oldest] = res.body.deliveries;
  expect(newest).toEqual({
    id: expect.any(String),
    endpointId: expect.any(String),
    eventId: expect.any(String),
    eventType: 'table.occupied',
    locationEventSequence: expect.any(Number),
    status: 'succeeded',
    attempts: [
      {
        attemptedAt: expect.stringMatching(UTC_MILLIS),
        responseStatus: 204,
        durationMs: expect.any(Number),
        error: null,
      },
    ],
    nextAttemptAt: null,
    createdAt: expect.stringMatching(UTC_MILLIS),
    updatedAt: expect.stringMatching(UTC_MILLIS),
  });
  expect(newest.locationEventSequence).toBeGreaterThan(oldest.locationEventSequence);
  const pending = await loc.api.get(`${P}/webhook-deliveries?status=pending`).expect(200);
  expect(pending.body.deliveries).toEqual([]);
  const paged = await loc.api.get(`${P}/webhook-deliveries?limit=1`).expect(200);
  expect(paged.body.deliveries).toEqual([newest]);
  const rest = await loc.api
    .get(`${P}/webhook-deliveries?limit=1&cursor=${encodeURIComponent(paged.body.nextCursor)}`)
    .expect(200);
  expect(rest.body).toEqual({ deliveries: [oldest], nextCursor: null });
});

it('When the receiver keeps failing, then the delivery is retried with one webhook-id, marked failed, and a redelivery succeeds', async () => {
  const { loc, path, waitFor } = await hooked();
  let healthy = false;
  receiver.status = (request: Received) => (request.path === path && !healthy ? 500 : 204);
  try {
    await h.walkIn(loc, [loc.tables[0]!]);
    const failed = await eventually(async () => {
      const r = await loc.api.get(`${P}/webhook-deliveries?status=failed`).expect(200);
      return r.body.deliveries.length === 1 ? r.body.deliveries[0] : undefined;
    });
    expect(failed.attempts).toHaveLength(3);
    expect(failed.attempts.map((a: Json) => a['responseStatus'])).toEqual([500, 500, 500]);
    expect(failed.nextAttemptAt).toBeNull();
    expect(new Set(receiver.at(path).map((r) => r.headers['webhook-id'])).size).toBe(1);

    healthy = true;
    const redelivered = await loc.api.post(`${P}/webhook-deliveries/${failed.id}/redeliver`);

    expect(redelivered.status).toBe(202);
    expect(redelivered.body).toEqual({ deliveryId: failed.id });
    const done = await eventually(async () => {
      const r = await loc.api.get(`${P}/webhook-deliveries?status=succeeded`).expect(200);
      return r.body.deliveries.length === 1 ? r.body.deliveries[0] : undefined;
    });
    expect(done.id).toBe(failed.id);
    expect(done.attempts.at(-1)).toMatchObject({ responseStatus: 204, error: null });
    expect(new Set(receiver.at(path).map((r) => r.headers['webhook-id'])).size).toBe(1);
    expect((await waitFor(1))[0]!['type']).toBe('table.occupied');
  } finally {
    receiver.status = () => 204;
  }
});

it('When every attempt has failed for WEBHOOK_DISABLE_AFTER_HOURS, then the endpoint is disabled and says why, events are still kept, and a PUT re-enables it', async () => {
  const { loc, path } = await hooked();
  receiver.status = (request: Received) => (request.path === path ? 503 : 204);
  try {
    await h.walkIn(loc, [loc.tables[0]!]);
    await receiver.until(
      () => (receiver.at(path).length > 0 ? true : undefined),
      10_000,
      'a first failed attempt',
    );
    // The run of failures began long ago (a receiver down for days): the next failure disables.
    await h.db.dataSource.query(
      `UPDATE webhook_endpoints SET failing_since = now() - interval '121 hours' WHERE location_id = $1`,
      [loc.id],
    );
    const disabled = await eventually(async () => {
      const r = await loc.api.get(`${P}/webhook-endpoint`).expect(200);
      return r.body.status === 'disabled' ? r.body : undefined;
    });
    const tried = receiver.at(path).length;
    await h.walkIn(loc, [loc.tables[1]!]);
    const kept = await h.db.dataSource.query(
      `SELECT count(*)::int AS n FROM outbox_events WHERE location_id = $1 AND type = 'table.occupied'`,
      [loc.id],
    );

    expect(disabled).toMatchObject({
      status: 'disabled',
      disabledAt: expect.stringMatching(UTC_MILLIS),
      disabledReason: 'every delivery attempt failed for 120 hours',
    });
    expect(kept).toEqual([{ n: 2 }]);
    receiver.status = () => 204;
    const reenabled = await loc.api
      .put(`${P}/webhook-endpoint`)
      .send({ url: `${receiver.origin}${path}` })
      .expect(200);
    expect(reenabled.body).toMatchObject({ status: 'enabled', disabledAt: null, disabledReason: null });
    await h.walkIn(loc, [loc.tables[2]!]);
    await receiver.until(
      () => (receiver.at(path).length > tried ? true : undefined),
      10_000,
      'a delivery after re-enabling',
    );
  } finally {
    receiver.status = () => 204;
  }
});

it("When another location's key lists or redelivers a location's deliveries, then it sees none and gets 404", async () => {
  const { loc, waitFor } = await hooked();
  await h.walkIn(loc, [loc.tables[0]!]);
  await waitFor(1);
  const mine = await eventually(async () => {
    const r = await loc.api.get(`${P}/webhook-deliveries`).expect(200);
    return r.body.deliveries[0];
  });
  const other = await h.location({ plan: 'none' });

  const list = await other.api.get(`${P}/webhook-deliveries`).expect(200);
  const redeliver = await other.api.post(`${P}/webhook-deliveries/${mine.id}/redeliver`);

  expect(list.body).toEqual({ deliveries: [], nextCursor: null });
  expectEnvelope(redeliver, 404, 'not_found');
});

it('When the secret is rotated, then deliveries carry two signatures, each verifiable with the old or the new secret', async () => {
  const hook = await hooked();
  const rotated = await hook.loc.api.post(`${P}/webhook-endpoint/rotate-secret`).expect(200);

  await h.walkIn(hook.loc, [hook.loc.tables[0]!]);
  await hook.waitFor(1);

  const request = receiver.at(hook.path)[0]!;
  expect(String(request.headers['webhook-signature']).split(' ')).toHaveLength(2);
  expect(verified(request, hook.secret)['type']).toBe('table.occupied');
  expect(verified(request, rotated.body.secret)['type']).toBe('table.occupied');
  expect(() => verified(request, 'whsec_' + Buffer.alloc(32, 7).toString('base64'))).toThrow();
});

it('When the endpoint subscribes to floorplan.published only, then table events are neither sent nor recorded', async () => {
  const hook = await hooked('draft', ['floorplan.published']);
  await h.operator.post(hook.loc.ops('/floorplan/publish')).expect(200);
  await h.walkIn(hook.loc, [hook.loc.tables[0]!]);
  await h.operator.post(hook.loc.ops('/floorplan/publish')).expect(200);

  const events = await hook.waitFor(2);
  await new Promise((resolve) => setTimeout(resolve, 300));

  expect(hook.events().map((e) => e['type'])).toEqual(['floorplan.published', 'floorplan.published']);
  const listed = await hook.loc.api.get(`${P}/webhook-deliveries`).expect(200);
  expect(listed.body.deliveries.map((d: Json) => d['eventType'])).toEqual([
    'floorplan.published',
    'floorplan.published',
  ]);
  expect(events.map((e) => (e['data'] as Json)['version']).sort()).toEqual([1, 2]);
});

it('When the endpoint is deleted, then later events are not delivered to it', async () => {
  const hook = await hooked();
  await hook.loc.api.delete(`${P}/webhook-endpoint`).expect(204);

  await h.walkIn(hook.loc, [hook.loc.tables[0]!]);
  await new Promise((resolve) => setTimeout(resolve, 500));

  expect(receiver.at(hook.path)).toEqual([]);
});

async function relayed(loc: TestLocation): Promise<void> {
  await eventually(async () => {
    const [row] = await h.db.dataSource.query(
      'SELECT count(*)::int AS n FROM outbox_events WHERE location_id = $1 AND relayed_at IS NULL',
      [loc.id],
    );
    return row.n === 0 ? true : undefined;
  });
}

async function eventually<T>(probe: () => Promise<T | undefined>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
