import { createHmac } from 'node:crypto';
import { ServiceUnavailableError, type Queries } from '@pis/domain';
import {
  exampleBodies as bodies,
  sandboxOperationId,
  toWebhookEventBody,
  type Example,
  type RecordedExamples,
  type WebhookExample,
  type WebhookTestEventBody,
} from '@pis/contract';
import { HttpError, KeyRateLimiter, MAX_BODY_BYTES } from '../../src';
import { BACKOFFICE_TOKEN, ExampleWorld } from './example-world';

const NO_SUCH_ID = '00000000-0000-4000-8000-000000000000';

/** A place the till writes to: the operator's backoffice on a location, or the simulator with a test key. */
interface Till {
  id: (backofficeId: string) => string;
  as: string;
  params: Record<string, string>;
}

const backofficeTill = (locationId: string): Till => ({
  id: (backofficeId) => backofficeId,
  as: BACKOFFICE_TOKEN,
  params: { locationId },
});

const simulatorTill = (testKey: string): Till => ({
  id: sandboxOperationId,
  as: testKey,
  params: {},
});

/**
 * The whole path a provider and an operator walk, run against the API over in-memory adapters:
 * a location and its key, the floor plan imported and published, the webhook endpoint, the
 * reservations written and seated, every till command, the deliveries, the event feed, the
 * table state and recover, the sandbox and its simulator; and the refusals of each step. What
 * the service answered is the document's examples (packages/contract/src/openapi/examples.json).
 */
export async function recordExamples(): Promise<RecordedExamples> {
  const w = new ExampleWorld();
  const call = w.call.bind(w);
  const operator = BACKOFFICE_TOKEN;

  // Health.
  await call('getHealth', { as: null, expect: 200, name: 'up', summary: 'the process is up' });
  await call('getReadiness', { as: null, expect: 200, name: 'ready', summary: 'the database answers' });
  await w.unready(() => call('getReadiness', { as: null, expect: 503 }));

  // Credentials.
  const location = await call('createLocation', {
    as: operator,
    body: bodies.locationBody(),
    expect: 201,
    name: 'live',
    summary: 'a live location',
  });
  await call('createLocation', {
    as: operator,
    body: { ...bodies.locationBody(), brand: 'Acme Foods' },
    expect: 422,
  });
  const at = { locationId: location.id as string };
  const { key, id: keyId } = await call('issueApiKey', {
    as: operator,
    params: at,
    expect: 201,
    name: 'live',
    summary: 'a live key, shown once',
  });
  await call('issueApiKey', { as: operator, params: { locationId: NO_SUCH_ID }, expect: 404 });
  const spareKey = await call('issueApiKey', { as: operator, params: at, expect: 201, keep: false });
  await call('revokeApiKey', { as: operator, params: { ...at, keyId: spareKey.id }, expect: 204 });
  await call('revokeApiKey', { as: operator, params: { ...at, keyId: NO_SUCH_ID }, expect: 404 });

  // Before any plan: what needs one is refused.
  await call('getFloorPlan', { as: key, expect: 404 });
  await call('getTableState', { as: key, expect: 409 });
  await call('publishFloorPlan', { as: operator, params: at, expect: 422 });
  await call('getWebhookEndpoint', { as: key, expect: 404 });
  await call('deleteWebhookEndpoint', { as: key, expect: 404 });
  await call('rotateWebhookSecret', { as: key, expect: 404 });
  await call('testWebhookEndpoint', { as: key, expect: 404 });
  await call('recoverWebhooks', { as: key, body: bodies.recoverAfterBody(0), expect: 404 });

  // Import.
  w.advance(30);
  const imported = await call('importFloorPlan', {
    as: key,
    body: bodies.importBody(),
    expect: 201,
    name: 'imported',
    summary: 'two rooms, the mapping of each table',
  });
  await call('importFloorPlan', { as: key, body: bodies.importBody(), expect: 409 });
  await call('importFloorPlan', {
    as: key,
    body: { rooms: [{ ...bodies.importBody().rooms[0]!, externalId: '' }] },
    expect: 422,
  });
  const tables = (imported.mapping as { tableId: string }[]).map((m) => m.tableId);
  const [t1, t2] = [tables[0]!, tables[1]!];

  await call('createReservation', {
    as: key,
    body: { ...bodies.fullReservationBody(), tableIds: [t1] },
    expect: 409,
  });
  await call('openWalkInOrder', {
    as: operator,
    params: at,
    body: bodies.walkInBody([t1]),
    expect: 409,
  });

  // The operator looks, edits a table and publishes.
  w.advance(15);
  await call('getWorkingPlan', {
    as: operator,
    params: at,
    expect: 200,
    name: 'draft',
    summary: 'the draft',
  });
  await call('getWorkingPlan', { as: operator, params: { locationId: NO_SUCH_ID }, expect: 404 });
  await call('editTable', {
    as: operator,
    params: { ...at, tableId: t2 },
    body: bodies.tablePatchBody(),
    expect: 200,
    name: 'relabelled',
    summary: 'a relabelled table with more seats',
  });
  await call('editTable', {
    as: operator,
    params: { ...at, tableId: t2 },
    body: { seatCount: 0 },
    expect: 422,
  });
  await call('editTable', {
    as: operator,
    params: { ...at, tableId: NO_SUCH_ID },
    body: bodies.tablePatchBody(),
    expect: 404,
  });
  await call('previewFloorPlanPublish', {
    as: operator,
    params: at,
    expect: 200,
    name: 'first',
    summary: 'before the first publish: every table is added',
  });
  await call('previewFloorPlanPublish', { as: operator, params: { locationId: NO_SUCH_ID }, expect: 404 });

  // The webhook endpoint, registered before the publish so that it receives it.
  await call('putWebhookEndpoint', {
    as: key,
    body: bodies.webhookEndpointBody(),
    expect: 200,
    name: 'registered',
    summary: 'every event type, with its signing secret',
  });
  await call('putWebhookEndpoint', {
    as: key,
    body: { url: 'http://hooks.example.com/pis/webhooks' },
    expect: 422,
  });
  await call('getWebhookEndpoint', { as: key, expect: 200, name: 'registered', summary: 'the endpoint' });
  await call('testWebhookEndpoint', {
    as: key,
    expect: 200,
    name: 'delivered',
    summary: 'the receiver verified and answered 204',
  });
  await endpointsById(w, key);

  w.advance(5);
  await call('publishFloorPlan', {
    as: operator,
    params: at,
    expect: 200,
    name: 'published',
    summary: 'version 1; floorplan.published is sent',
  });
  await call('publishFloorPlan', { as: operator, params: { locationId: NO_SUCH_ID }, expect: 404 });
  await call('getFloorPlan', { as: key, expect: 200, name: 'published', summary: 'version 1' });

  // Reservations.
  w.memory.clock.set('2026-11-20T10:00:00.000Z');
  const minimal = bodies.minimalReservationBody();
  await call('createReservation', {
    as: key,
    body: minimal,
    expect: 201,
    name: 'minimal',
    summary: 'only the required fields',
  });
  const full = { ...bodies.fullReservationBody(), tableIds: [t1, t2] };
  await call('createReservation', {
    as: key,
    body: full,
    expect: 201,
    name: 'full',
    summary: 'every field, on two tables',
  });
  await call('createReservation', { as: key, body: minimal, expect: 409 });
  await call('createReservation', {
    as: key,
    body: { ...minimal, externalId: 'ot-10003', covers: 0, startsAt: '2026-11-21 19:00' },
    expect: 422,
  });
  await call('createReservation', {
    as: key,
    body: { ...minimal, externalId: 'ot-10003', tableIds: [NO_SUCH_ID] },
    expect: 422,
  });
  await call('listReservations', {
    as: key,
    query: `from=${encodeURIComponent('2026-11-21T00:00+01:00')}&to=${encodeURIComponent('2026-11-22T00:00+01:00')}`,
    expect: 200,
    name: 'window',
    summary: 'the evening of 21 November',
  });
  await call('listReservations', {
    as: key,
    query: 'from=2026-11-22T00:00Z&to=2026-11-21T00:00Z',
    expect: 422,
  });

  // Seating: the guests of the full reservation arrive.
  w.memory.clock.set('2026-11-21T18:58:00.000Z');
  const seated = { ...full, status: 'seated', updatedAt: '2026-11-21T19:58+01:00' };
  await call('updateReservation', {
    as: key,
    params: { externalId: full.externalId },
    body: seated,
    expect: 200,
    name: 'seated',
    summary: 'seated: an order opens on its tables',
  });
  await call('updateReservation', {
    as: key,
    params: { externalId: full.externalId },
    body: seated,
    expect: 200,
    name: 'stale',
    summary: 'the same write again: stale, nothing applied',
  });
  await call('updateReservation', {
    as: key,
    params: { externalId: 'ot-99999' },
    body: { ...minimal, externalId: 'ot-99999' },
    expect: 404,
  });
  await call('updateReservation', {
    as: key,
    params: { externalId: minimal.externalId },
    body: { ...minimal, status: 'seated', tableIds: [t1], updatedAt: '2026-11-21T19:01:00Z' },
    expect: 409,
  });
  await call('updateReservation', {
    as: key,
    params: { externalId: minimal.externalId },
    body: { ...minimal, externalId: 'ot-20000' },
    expect: 422,
  });
  await call('updateReservation', {
    as: key,
    params: { externalId: minimal.externalId },
    body: { ...minimal, tableIds: [NO_SUCH_ID], updatedAt: '2026-11-21T19:01:00Z' },
    expect: 422,
  });
  await call('createReservation', {
    as: key,
    body: { ...minimal, externalId: 'ot-10004', status: 'seated', tableIds: [t2] },
    expect: 409,
  });

  // The till: the operator's backoffice on the live location.
  w.memory.clock.set('2026-11-21T19:05:00.000Z');
  const seatedOrder = (await call('listOrders', {
    as: operator,
    params: at,
    query: 'status=open',
    expect: 200,
    name: 'open',
    summary: 'the open orders',
  })) as { orders: { id: string }[] };
  await call('listOrders', { as: operator, params: { locationId: NO_SUCH_ID }, expect: 404 });
  await call('listOrders', { as: operator, params: at, query: 'status=eaten', expect: 422 });
  await till(w, backofficeTill(at.locationId), tables, seatedOrder.orders[0]!.id, true);

  // Deliveries: the relay turns events into deliveries, the first attempt fails, a retry succeeds.
  await deliver(w);
  const deliveries = await call('listWebhookDeliveries', {
    as: key,
    query: 'limit=3',
    expect: 200,
    name: 'page',
    summary: 'the newest three',
  });
  await call('listWebhookDeliveries', { as: key, query: 'status=lost', expect: 422 });
  const deliveryId = deliveries.deliveries[0].id as string;
  await call('redeliverWebhook', {
    as: key,
    params: { deliveryId },
    expect: 202,
    name: 'queued',
    summary: 'queued again',
  });
  await call('redeliverWebhook', { as: key, params: { deliveryId: NO_SUCH_ID }, expect: 404 });
  await call('listLocationWebhookDeliveries', {
    as: operator,
    params: at,
    query: 'status=succeeded&limit=2',
    expect: 200,
    name: 'page',
    summary: 'the two newest delivered',
  });
  await call('listLocationWebhookDeliveries', {
    as: operator,
    params: { locationId: NO_SUCH_ID },
    expect: 404,
  });
  await call('listLocationWebhookDeliveries', { as: operator, params: at, query: 'limit=0', expect: 422 });
  await call('redeliverLocationWebhook', {
    as: operator,
    params: { ...at, deliveryId },
    expect: 202,
    name: 'queued',
    summary: 'queued again',
  });
  await call('redeliverLocationWebhook', {
    as: operator,
    params: { ...at, deliveryId: NO_SUCH_ID },
    expect: 404,
  });

  // The event feed, the table state and recover.
  await call('listEvents', {
    as: key,
    query: 'after=0&limit=4',
    expect: 200,
    name: 'first',
    summary: 'the first four events',
  });
  await call('listEvents', { as: key, query: 'after=0&types=table.eaten', expect: 422 });
  await call('getTableState', {
    as: key,
    expect: 200,
    name: 'now',
    summary: 'every table and its open order',
  });
  await call('rotateWebhookSecret', {
    as: key,
    expect: 200,
    name: 'rotated',
    summary: 'a new secret; the previous one signs beside it for 24 h',
  });
  await call('recoverWebhooks', {
    as: key,
    body: bodies.recoverAfterBody(3),
    expect: 202,
    name: 'after',
    summary: 'every event after sequence 3',
  });
  await call('recoverWebhooks', {
    as: key,
    body: bodies.recoverSinceBody(),
    expect: 202,
    name: 'since',
    summary: 'every event after an instant',
  });
  await call('recoverWebhooks', {
    as: key,
    body: { ...bodies.recoverAfterBody(3), ...bodies.recoverSinceBody() },
    expect: 422,
  });
  const webhooks = webhookExamples(w, at.locationId);

  // The sandbox: a location of test keys and the till simulator on it.
  await sandbox(w);

  // A provider across venues: one key, connected to the location, naming it per request.
  const providerKey = await providersAcrossVenues(w, at);
  Object.assign(webhooks, connectionWebhookExamples(w));

  // Answers every operation gives alike.
  const shared = await sharedAnswers(w, key, keyId, providerKey);

  // Retention: a month later the first events are gone.
  w.memory.clock.set('2026-12-23T09:00:00.000Z');
  await w.memory.store.retention.prune(w.memory.clock.now().plusMicros(-30n * 86_400_000_000n), 1000);
  await call('listEvents', { as: key, query: 'after=0', expect: 410 });
  await call('recoverWebhooks', { as: key, body: bodies.recoverAfterBody(0), expect: 410 });
  const late = await call('createWebhookEndpoint', {
    as: key,
    body: bodies.webhookEndpointCreateBody(),
    expect: 201,
    keep: false,
  });
  const lateId = { endpointId: late.id as string };
  await call('recoverScopedWebhooks', {
    as: key,
    params: lateId,
    body: bodies.recoverAfterBody(0),
    expect: 410,
  });
  await call('deleteWebhookEndpoint', { as: key, expect: 204 });

  return { shared, operations: sorted(w.operations), webhooks };
}

/** Every till command on `till`, on the seated order and on a walk-in, with their refusals. */
async function till(w: ExampleWorld, t: Till, tables: string[], seatedOrderId: string, live: boolean) {
  const run = (backofficeId: string, call: Omit<Parameters<ExampleWorld['call']>[1], 'as'>) =>
    w.call(t.id(backofficeId), { as: t.as, ...call, params: { ...t.params, ...call.params } });
  const of = (orderId: string) => ({ orderId });
  const missing = of(NO_SUCH_ID);
  const [, , t3, t4] = tables;

  const walkIn = await run('openWalkInOrder', {
    body: bodies.walkInBody([t3!]),
    expect: 201,
    name: 'opened',
    summary: 'two walk-ins at a free table',
  });
  await run('openWalkInOrder', { body: bodies.walkInBody([t3!]), expect: 409 });
  await run('openWalkInOrder', { body: { tableIds: [t4!], covers: 0 }, expect: 422 });
  await run('openWalkInOrder', { body: bodies.walkInBody([NO_SUCH_ID]), expect: 422 });
  if (live)
    await run('openWalkInOrder', {
      params: { locationId: NO_SUCH_ID },
      body: bodies.walkInBody([t4!]),
      expect: 404,
    });

  w.advance(10);
  const withItem = await run('addOrderItem', {
    params: of(seatedOrderId),
    body: bodies.orderItemBody(),
    expect: 200,
    name: 'added',
    summary: 'two tasting menus on the check',
  });
  const dessert = await run('addOrderItem', {
    params: of(walkIn.id),
    body: { label: 'Tiramisu', amountMinor: 650, course: 'dessert' },
    expect: 200,
    keep: false,
  });
  await run('addOrderItem', {
    params: of(seatedOrderId),
    body: { label: 'Margherita', amountMinor: -1150 },
    expect: 422,
  });
  await run('addOrderItem', { params: missing, body: bodies.orderItemBody(), expect: 404 });
  await run('voidOrderItem', {
    params: { ...of(walkIn.id), itemId: dessert.check.items[0].id },
    expect: 200,
    name: 'voided',
    summary: 'the item stays on the check, out of the totals',
  });
  await run('voidOrderItem', { params: { ...of(seatedOrderId), itemId: NO_SUCH_ID }, expect: 404 });
  await run('addOrderDiscount', {
    params: of(seatedOrderId),
    body: bodies.orderDiscountBody(),
    expect: 200,
    name: 'added',
    summary: 'a discount on the check',
  });
  await run('addOrderDiscount', {
    params: of(seatedOrderId),
    body: { label: '', amountMinor: 300 },
    expect: 422,
  });
  await run('addOrderDiscount', { params: missing, body: bodies.orderDiscountBody(), expect: 404 });
  w.advance(5);
  await run('setOrderServiceStatus', {
    params: of(seatedOrderId),
    body: bodies.serviceStatusBody(),
    expect: 200,
    name: 'mains',
    summary: 'the mains are served',
  });
  await run('setOrderServiceStatus', { params: of(seatedOrderId), body: { status: 'pudding' }, expect: 422 });
  await run('setOrderServiceStatus', { params: missing, body: bodies.serviceStatusBody(), expect: 404 });
  w.advance(40);
  await run('addOrderPayment', {
    params: of(seatedOrderId),
    body: bodies.orderPaymentBody(),
    expect: 200,
    name: 'paid',
    summary: 'paid by card with a tip',
  });
  await run('addOrderPayment', {
    params: of(seatedOrderId),
    body: { amountMinor: 2000, tender: 'shells' },
    expect: 422,
  });
  await run('addOrderPayment', { params: missing, body: bodies.orderPaymentBody(), expect: 404 });
  await run('moveOrder', {
    params: of(walkIn.id),
    body: bodies.moveBody([t4!]),
    expect: 200,
    name: 'moved',
    summary: 'the walk-ins move to another table',
  });
  await run('moveOrder', { params: of(walkIn.id), body: bodies.moveBody(tables.slice(0, 1)), expect: 409 });
  await run('moveOrder', { params: of(walkIn.id), body: { tableIds: [] }, expect: 422 });
  await run('moveOrder', { params: of(walkIn.id), body: bodies.moveBody([NO_SUCH_ID]), expect: 422 });
  await run('moveOrder', { params: missing, body: bodies.moveBody([t3!]), expect: 404 });
  w.advance(5);
  await run('closeOrder', {
    params: of(seatedOrderId),
    expect: 200,
    name: 'closed',
    summary: 'closed: table.freed and order.closed are sent',
  });
  await run('closeOrder', { params: of(seatedOrderId), expect: 422 });
  await run('closeOrder', { params: missing, expect: 404 });
  await run('voidOrder', {
    params: of(walkIn.id),
    expect: 200,
    name: 'voided',
    summary: 'voided on the till: table.freed is sent',
  });
  await run('voidOrder', { params: of(walkIn.id), expect: 422 });
  await run('voidOrder', { params: missing, expect: 404 });

  // A closed order takes no more changes.
  await run('addOrderItem', { params: of(seatedOrderId), body: bodies.orderItemBody(), expect: 409 });
  await run('voidOrderItem', {
    params: { ...of(seatedOrderId), itemId: withItem.check.items[0].id },
    expect: 409,
  });
  await run('addOrderDiscount', { params: of(seatedOrderId), body: bodies.orderDiscountBody(), expect: 409 });
  await run('addOrderPayment', { params: of(seatedOrderId), body: bodies.orderPaymentBody(), expect: 409 });
  await run('setOrderServiceStatus', {
    params: of(seatedOrderId),
    body: bodies.serviceStatusBody(),
    expect: 409,
  });
}

/** Relays the outbox; every delivery's first attempt fails with 503, the retry half a minute later succeeds. */
async function deliver(w: ExampleWorld): Promise<void> {
  const { pipeline } = w.memory.store;
  await pipeline.relay.relayBatch(1000);
  for (const [status, error] of [
    [503, 'the receiver answered 503'],
    [204, null],
  ] as const) {
    const claimed = await pipeline.leases.claimDue(1000, 30_000);
    for (const delivery of claimed) {
      const result = { attemptedAt: w.memory.clock.now(), responseStatus: status, durationMs: 41, error };
      const followUp =
        error === null ? { kind: 'succeeded' as const } : { kind: 'retry' as const, delayMs: 30_000 };
      await pipeline.attempts.record(delivery, result, followUp, null);
    }
    w.advance(1);
  }
}

/** The last event of each type the live location raised, signed as its delivery is; and the test event. */
function webhookExamples(w: ExampleWorld, locationId: string): Record<string, WebhookExample> {
  const shown = w.operations['getWebhookEndpoint']!.responses['200']!['registered']!.value as {
    secret: string;
  };
  const secret = shown.secret;
  const out: Record<string, WebhookExample> = {};
  // The last of each type: the spend after the payment, the move's table.occupied, the void's table.freed.
  for (const event of w.memory.store.events(locationId)) {
    out[event.type] = signed(
      event.id,
      Math.floor(event.occurredAt.epochMillis() / 1000),
      toWebhookEventBody(event),
      secret,
    );
  }
  const sent = w.memory.webhookTests.sent[0]!;
  const body: WebhookTestEventBody = { type: 'webhook.test', timestamp: sent.message.at.toIso(), data: {} };
  out['webhook.test'] = signed(
    sent.message.id,
    Math.floor(sent.message.at.epochMillis() / 1000),
    body,
    secret,
  );
  return out;
}

/**
 * The connection events of the provider's grant, revoke and re-grant (the first of each type),
 * signed with the same example secret as every other webhook example.
 */
function connectionWebhookExamples(w: ExampleWorld): Record<string, WebhookExample> {
  const shown = w.operations['getWebhookEndpoint']!.responses['200']!['registered']!.value as {
    secret: string;
  };
  const out: Record<string, WebhookExample> = {};
  for (const event of w.memory.store.connectionEvents()) {
    out[event.type] ??= signed(
      event.id,
      Math.floor(event.occurredAt.epochMillis() / 1000),
      toWebhookEventBody(event),
      shown.secret,
    );
  }
  return out;
}

/** Standard Webhooks: `v1,` and the base64 HMAC-SHA256 of `{id}.{timestamp}.{body}` under the secret's bytes. */
function signed(id: string, timestamp: number, body: unknown, secret: string): WebhookExample {
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  const mac = createHmac('sha256', key)
    .update(`${id}.${timestamp}.${JSON.stringify(body)}`)
    .digest('base64');
  return {
    headers: { 'webhook-id': id, 'webhook-timestamp': String(timestamp), 'webhook-signature': `v1,${mac}` },
    body,
  };
}

/** A sandbox location: its test key imports a plan, and the simulator publishes it and runs the till. */
async function sandbox(w: ExampleWorld): Promise<void> {
  const call = w.call.bind(w);
  const location = await call('createLocation', {
    as: BACKOFFICE_TOKEN,
    body: bodies.sandboxLocationBody(),
    expect: 201,
    name: 'sandbox',
    summary: 'a sandbox location (test keys)',
  });
  const { key } = await call('issueApiKey', {
    as: BACKOFFICE_TOKEN,
    params: { locationId: location.id },
    expect: 201,
    name: 'test',
    summary: 'a test key of a sandbox location',
  });
  const t = simulatorTill(key);
  await call('sandboxPublishFloorPlan', { as: key, expect: 422 });
  const early = bodies.minimalReservationBody();
  await call('createReservation', { as: key, body: early, expect: 201, keep: false });
  await call('updateReservation', {
    as: key,
    params: { externalId: early.externalId },
    body: { ...early, status: 'seated', tableIds: [NO_SUCH_ID], updatedAt: '2026-11-20T10:05:00Z' },
    expect: 409,
  });
  await call('sandboxOpenWalkInOrder', { as: key, body: bodies.walkInBody(['x']), expect: 409 });
  const imported = await call('importFloorPlan', {
    as: key,
    body: bodies.importBody(),
    expect: 201,
    keep: false,
  });
  await call('sandboxPublishFloorPlan', {
    as: key,
    expect: 200,
    name: 'published',
    summary: 'version 1 of the sandbox plan',
  });
  const tables = (imported.mapping as { tableId: string }[]).map((m) => m.tableId);
  const seated = await call('sandboxOpenWalkInOrder', {
    as: key,
    body: bodies.walkInBody([tables[0]!, tables[1]!]),
    expect: 201,
    keep: false,
  });
  await call('sandboxListOrders', {
    as: key,
    query: 'status=open',
    expect: 200,
    name: 'open',
    summary: 'the open orders',
  });
  await call('sandboxListOrders', { as: key, query: 'status=eaten', expect: 422 });
  await till(w, t, tables, seated.id, false);
}

/** Refusals that do not depend on the operation: recorded once each, on one operation. */
async function sharedAnswers(
  w: ExampleWorld,
  key: string,
  keyId: string,
  providerKey: string,
): Promise<Record<string, Example>> {
  const shared: Record<string, Example> = {};
  const keep = (name: string, body: { error: { message: string } }) => {
    shared[name] = { summary: body.error.message, value: body };
  };
  const minimal = bodies.minimalReservationBody();
  const refused = (operationId: string, call: Omit<Parameters<ExampleWorld['call']>[1], 'keep'>) =>
    w.call(operationId, { ...call, keep: false });
  keep('Unauthorized', await refused('createReservation', { as: null, body: minimal, expect: 401 }));
  keep(
    'UnauthorizedOperator',
    await refused('createLocation', { as: null, body: bodies.locationBody(), expect: 401 }),
  );
  const json = (bytes: string) => ({ type: 'application/json', bytes });
  keep(
    'InvalidJson',
    await refused('createReservation', { as: key, raw: json('{"externalId": "ot-1",'), expect: 400 }),
  );
  keep(
    'UnsupportedMediaType',
    await refused('createReservation', {
      as: key,
      raw: { type: 'text/plain', bytes: 'externalId=ot-1' },
      expect: 415,
    }),
  );
  keep(
    'BodyTooLarge',
    await refused('createReservation', {
      as: key,
      raw: json(`"${'x'.repeat(MAX_BODY_BYTES)}"`),
      expect: 413,
    }),
  );
  keep('SandboxOnly', await refused('sandboxListOrders', { as: key, expect: 403 }));
  await idempotencyRefusals(w, key, keep);
  // A location route with a provider key: the location it names, or none.
  const located = (locationId: string | null, expect: number) =>
    w.call('getFloorPlan', {
      as: providerKey,
      expect,
      keep: false,
      headers: locationId === null ? {} : { 'Location-Id': locationId },
    });
  keep('LocationRequired', await located(null, 400));
  keep('InvalidLocationId', await located('table-1', 422));
  keep('LocationNotGranted', await located(NO_SUCH_ID, 403));
  keep('RateLimited', await rateLimited(w, key, keyId));
  keep(
    'InternalError',
    await failing(w, new Error('an example failure'), () =>
      refused('getFloorPlan', { as: key, expect: 500 }),
    ),
  );
  keep(
    'Unavailable',
    await failing(w, new ServiceUnavailableError('database', 'the database is not reachable'), () =>
      refused('getFloorPlan', { as: key, expect: 503 }),
    ),
  );
  // What the HTTP server itself writes, before any route, for bytes that are not HTTP/1.1.
  keep(
    'InvalidHttp',
    new HttpError(400, 'validation_failed', 'the request is not valid HTTP/1.1').toEnvelope(),
  );
  return shared;
}

/**
 * The operator makes a provider, issues it a key and connects it to the location; the provider
 * lists its connections and reads the location's plan naming it with `Location-Id`. Answers
 * the provider's live key.
 */
async function providersAcrossVenues(w: ExampleWorld, at: { locationId: string }): Promise<string> {
  const call = w.call.bind(w);
  const operator = BACKOFFICE_TOKEN;
  const provider = await call('createProvider', {
    as: operator,
    body: bodies.providerBody(),
    expect: 201,
    name: 'created',
    summary: 'a provider',
  });
  await call('createProvider', {
    as: operator,
    body: { ...bodies.providerBody(), brand: 'Table Book' },
    expect: 422,
  });
  const providerId = provider.id as string;
  await call('listProviders', { as: operator, expect: 200, name: 'page', summary: 'the newest providers' });
  await call('listProviders', { as: operator, query: 'limit=0', expect: 422 });
  await call('getProvider', {
    as: operator,
    params: { providerId },
    expect: 200,
    name: 'one',
    summary: 'a provider',
  });
  await call('getProvider', { as: operator, params: { providerId: NO_SUCH_ID }, expect: 404 });
  const issued = await call('issueProviderKey', {
    as: operator,
    params: { providerId },
    body: bodies.providerKeyBody(),
    expect: 201,
    name: 'live',
    summary: 'a live provider key, shown once',
  });
  await call('issueProviderKey', {
    as: operator,
    params: { providerId },
    body: { mode: 'staging' },
    expect: 422,
  });
  await call('issueProviderKey', { as: operator, params: { providerId: NO_SUCH_ID }, body: {}, expect: 404 });
  const spare = await call('issueProviderKey', {
    as: operator,
    params: { providerId },
    expect: 201,
    keep: false,
  });
  await call('revokeProviderKey', { as: operator, params: { providerId, keyId: spare.id }, expect: 204 });
  await call('revokeProviderKey', { as: operator, params: { providerId, keyId: NO_SUCH_ID }, expect: 404 });

  const connection = { ...at, providerId };
  await call('grantConnection', {
    as: operator,
    params: connection,
    expect: 201,
    name: 'granted',
    summary: 'the first grant',
  });
  await call('grantConnection', {
    as: operator,
    params: connection,
    expect: 200,
    name: 'active',
    summary: 'active already',
  });
  await call('grantConnection', { as: operator, params: { ...at, providerId: NO_SUCH_ID }, expect: 404 });
  await call('revokeConnection', { as: operator, params: { ...at, providerId: at.locationId }, expect: 422 });
  await call('revokeConnection', {
    as: operator,
    params: { locationId: NO_SUCH_ID, providerId },
    expect: 404,
  });
  await call('listLocationConnections', {
    as: operator,
    params: at,
    expect: 200,
    name: 'connections',
    summary: "the location's own provider, then the granted one",
  });
  await call('listLocationConnections', { as: operator, params: { locationId: NO_SUCH_ID }, expect: 404 });
  await call('listLocations', { as: operator, expect: 200, name: 'page', summary: 'the newest locations' });
  await call('listLocations', { as: operator, query: 'cursor=%2A', expect: 422 });

  const key = issued.key as string;
  await call('listConnections', { as: key, expect: 200, name: 'page', summary: "the provider's locations" });
  await call('listConnections', { as: key, query: 'limit=1001', expect: 422 });
  // The location's endpoint and deliveries are its own provider's: another provider finds none.
  const located = { as: key, headers: { 'Location-Id': at.locationId } };
  await call('putWebhookEndpoint', { ...located, body: bodies.webhookEndpointBody(), expect: 404 });
  await call('listWebhookDeliveries', {
    ...located,
    expect: 200,
    name: 'provider',
    summary: 'a provider key with Location-Id: the deliveries to its own endpoints there (none yet)',
  });
  // A revoke and a re-grant, so that both connection events exist to be shown.
  await call('revokeConnection', { as: operator, params: connection, expect: 204, keep: false });
  await call('grantConnection', { as: operator, params: connection, expect: 200, keep: false });
  return key;
}

/**
 * The endpoints of POST /webhook-endpoints beside the singleton: one made, read, changed,
 * rotated, tested and removed, and the eleventh refused. None is left, so the deliveries
 * recorded later are the singleton's alone.
 */
async function endpointsById(w: ExampleWorld, key: string): Promise<void> {
  const call = w.call.bind(w);
  const made = await call('createWebhookEndpoint', {
    as: key,
    body: bodies.webhookEndpointCreateBody(),
    expect: 201,
    name: 'created',
    summary: 'two event types, with its own signing secret',
  });
  await call('createWebhookEndpoint', {
    as: key,
    body: { ...bodies.webhookEndpointCreateBody(), eventTypes: ['table.sold'] },
    expect: 422,
  });
  await call('listWebhookEndpoints', {
    as: key,
    expect: 200,
    name: 'two',
    summary: 'the endpoint of PUT /webhook-endpoint, then the one created',
  });
  const endpointId = made.id as string;
  await call('getScopedWebhookEndpoint', {
    as: key,
    params: { endpointId },
    expect: 200,
    name: 'created',
    summary: 'the endpoint',
  });
  await call('getScopedWebhookEndpoint', { as: key, params: { endpointId: NO_SUCH_ID }, expect: 404 });
  await call('patchWebhookEndpoint', {
    as: key,
    params: { endpointId },
    body: { eventTypes: ['table.occupied'], description: 'host stand' },
    expect: 200,
    name: 'changed',
    summary: 'one event type and another description; the secret stays',
  });
  await call('patchWebhookEndpoint', {
    as: key,
    params: { endpointId },
    body: { eventTypes: [] },
    expect: 422,
  });
  await call('patchWebhookEndpoint', { as: key, params: { endpointId: NO_SUCH_ID }, body: {}, expect: 404 });
  await call('rotateScopedWebhookSecret', {
    as: key,
    params: { endpointId },
    expect: 200,
    name: 'rotated',
    summary: 'a new secret; the previous one signs beside it for 24 h',
  });
  await call('rotateScopedWebhookSecret', { as: key, params: { endpointId: NO_SUCH_ID }, expect: 404 });
  await call('testScopedWebhookEndpoint', {
    as: key,
    params: { endpointId },
    expect: 200,
    name: 'delivered',
    summary: 'the receiver verified and answered 204',
  });
  await call('testScopedWebhookEndpoint', { as: key, params: { endpointId: NO_SUCH_ID }, expect: 404 });
  await call('recoverScopedWebhooks', {
    as: key,
    params: { endpointId },
    body: bodies.recoverAfterBody(0),
    expect: 202,
    name: 'after',
    summary: 'every retained event of its types after sequence 0',
  });
  await call('recoverScopedWebhooks', {
    as: key,
    params: { endpointId },
    body: { ...bodies.recoverAfterBody(0), ...bodies.recoverSinceBody() },
    expect: 422,
  });
  await call('recoverScopedWebhooks', {
    as: key,
    params: { endpointId: NO_SUCH_ID },
    body: bodies.recoverAfterBody(0),
    expect: 404,
  });
  const spares: string[] = [];
  for (let n = 0; n < 8; n += 1) {
    const spare = await call('createWebhookEndpoint', {
      as: key,
      body: bodies.webhookEndpointCreateBody(),
      expect: 201,
      keep: false,
    });
    spares.push(spare.id as string);
  }
  await call('createWebhookEndpoint', { as: key, body: bodies.webhookEndpointCreateBody(), expect: 409 });
  for (const spare of spares) {
    await call('deleteScopedWebhookEndpoint', {
      as: key,
      params: { endpointId: spare },
      expect: 204,
      keep: false,
    });
  }
  await call('deleteScopedWebhookEndpoint', {
    as: key,
    params: { endpointId },
    expect: 204,
    name: 'removed',
    summary: 'removed',
  });
  await call('deleteScopedWebhookEndpoint', { as: key, params: { endpointId }, expect: 404 });
}

/**
 * What an `Idempotency-Key` adds to every POST: a key that is not one, a key sent again with
 * another request, and a key whose first request is still running. The first requests are
 * refusals themselves (an empty body), so nothing is made.
 */
async function idempotencyRefusals(
  w: ExampleWorld,
  key: string,
  keep: (name: string, body: { error: { message: string } }) => void,
): Promise<void> {
  const post = (idempotencyKey: string, body: unknown, expect: number) =>
    w.call('createReservation', {
      as: key,
      body,
      expect,
      keep: false,
      headers: { 'Idempotency-Key': idempotencyKey },
    });
  keep('InvalidIdempotencyKey', await post('', {}, 422));
  await post('3f2c9a4e-example-reused', {}, 422);
  keep('IdempotencyKeyReused', await post('3f2c9a4e-example-reused', { externalId: 'ot-1' }, 422));
  const inProgress = await w.answersHeld(async (kept) => {
    const first = post('3f2c9a4e-example-running', {}, 422);
    await kept;
    return { first, second: await post('3f2c9a4e-example-running', {}, 409) };
  });
  await inProgress.first;
  keep('IdempotencyInProgress', inProgress.second);
}

/**
 * A 429 at the service's default limit (RATE_LIMIT_RPS 100): the key's window is used up
 * first, then one request is refused. A window that ends in between (a slow machine) starts
 * the attempt over.
 */
async function rateLimited(w: ExampleWorld, key: string, keyId: string): Promise<any> {
  const limiter = new KeyRateLimiter({ rps: 100 });
  const app = w.appWith(limiter);
  for (let attempt = 1; ; attempt += 1) {
    while ((await limiter.take(keyId)).allowed);
    try {
      return await w.call('getFloorPlan', { as: key, expect: 429, keep: false }, app);
    } catch (error) {
      if (attempt === 10) throw error;
    }
  }
}

/** Runs `work` while every read of the store throws `error`. */
async function failing<T>(w: ExampleWorld, error: Error, work: () => Promise<T>): Promise<T> {
  const deps = w.deps as { queries: Queries };
  const queries = deps.queries;
  deps.queries = new Proxy(queries, {
    get: () => {
      throw error;
    },
  });
  try {
    return await work();
  } finally {
    deps.queries = queries;
  }
}

/** By operation id, so that the file diffs well. */
function sorted<T>(record: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => a.localeCompare(b)));
}
