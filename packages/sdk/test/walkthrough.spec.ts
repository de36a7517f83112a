import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Harness } from '@pis/api/test/support/harness';
import { Receiver, type Received } from '@pis/api/test/support/receiver';
import {
  createProviderClient,
  ProviderApiError,
  verifyWebhook,
  WebhookVerificationError,
  type FloorPlanImportRequest,
  type ProviderClient,
  type ReservationRequest,
  type WebhookEvent,
} from '../src';

/**
 * The README's onboarding walkthrough, step for step, written with the SDK instead of curl:
 * the real API in-process on PostgreSQL (delivering webhooks itself, no REDIS_URL), the
 * operator's steps through the backoffice, and a receiver on 127.0.0.1 whose deliveries
 * the SDK's verifier checks.
 */
let h: Harness;
let receiver: Receiver;

beforeAll(async () => {
  receiver = await Receiver.start();
  h = await Harness.start();
  await h.runtime.start();
});
afterAll(async () => {
  await h?.stop();
  await receiver?.close();
});

const floorPlan = JSON.parse(
  readFileSync(join(__dirname, '../../../examples/floorplan.json'), 'utf8'),
) as FloorPlanImportRequest;

const sdkFor = (apiKey: string): ProviderClient => createProviderClient({ baseUrl: h.api.baseUrl, apiKey });

/** A rejection of `pending`, which must be a ProviderApiError. */
async function refusal(pending: Promise<unknown>): Promise<ProviderApiError> {
  const error = await pending.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ProviderApiError);
  return error as ProviderApiError;
}

/** The verified events that reached `path`, one per webhook-id, in locationEventSequence order. */
function verifiedAt(path: string, secret: string): WebhookEvent[] {
  const byId = new Map<string, WebhookEvent>();
  for (const request of receiver.at(path)) {
    byId.set(String(request.headers['webhook-id']), verifyWebhook(secret, request.body, request.headers));
  }
  return [...byId.values()].sort((a, b) => a.data.locationEventSequence - b.data.locationEventSequence);
}

/** What a provider reads off each event, narrowed by its type. */
function summary(event: WebhookEvent): Record<string, unknown> {
  switch (event.type) {
    case 'floorplan.published':
      return { type: event.type, version: event.data.version };
    case 'table.occupied':
      return {
        type: event.type,
        tableId: event.data.tableId,
        reservation: event.data.reservationExternalId,
        covers: event.data.covers,
      };
    case 'table.freed':
      return {
        type: event.type,
        tableId: event.data.tableId,
        reservation: event.data.reservationExternalId,
        reason: event.data.reason,
      };
    case 'table.spend_updated':
      return { type: event.type, tableIds: event.data.tableIds, covers: event.data.covers };
    default:
      return { type: (event as { type: string }).type };
  }
}

describe('the README walkthrough with the SDK', () => {
  it('When a provider follows the walkthrough with the SDK, then every step answers as described and every webhook verifies', async () => {
    const location = await h.location({ plan: 'none' });
    const sdk = sdkFor(location.key);

    // 1. The provider imports its floor plan once and stores the table-id mapping.
    const { mapping } = await sdk.importFloorPlan(floorPlan);
    expect(mapping.slice(0, 3).map((m) => m.externalTableId)).toEqual(['T1', 'T2', 'T3']);
    const [t1, t2, t3] = mapping.map((m) => m.tableId) as [string, string, string];

    // 2. It registers its webhook endpoint and keeps the secret to verify deliveries.
    const hooks = `/hooks/${location.id}`;
    const { secret } = await sdk.putWebhookEndpoint({ url: `${receiver.origin}${hooks}` });
    expect(secret).toMatch(/^whsec_/);

    // 3. The operator publishes the plan; the provider reads it back.
    await h.operator.post(location.ops('/floorplan/publish')).expect(200);
    const published = await sdk.getFloorPlan();
    expect(published.version).toBe(1);
    expect(published.rooms.flatMap((room) => room.tables.map((t) => t.id))).toEqual(
      expect.arrayContaining([t1, t2, t3]),
    );

    // 4. Create a reservation, then seat it at table 1: an order opens on the till.
    const ada = (fields: Partial<ReservationRequest>): ReservationRequest => ({
      externalId: 'r-1001',
      status: 'seated',
      partyName: 'Ada',
      covers: 2,
      startsAt: '2026-11-21T19:00+01:00',
      tableIds: [t1],
      updatedAt: '2026-11-21T18:02:00Z',
      ...fields,
    });
    const created = await sdk.createReservation(
      ada({ status: 'confirmed', updatedAt: '2026-11-20T10:00:00Z' }),
    );
    expect(created.outcome).toBe('applied');
    const seated = await sdk.updateReservation('r-1001', ada({}));
    expect(seated.outcome).toBe('applied');
    expect(seated.reservation.linkedOrderId).toEqual(expect.any(String));

    // 5. A blind retry of the same write changes nothing: outcome "stale".
    expect((await sdk.updateReservation('r-1001', ada({}))).outcome).toBe('stale');

    // 6. A walk-in takes table 2; moving the reservation there is refused, naming the holder.
    const walkIn = await h.walkIn(location, [t2], 3);
    const occupied = await refusal(
      sdk.updateReservation('r-1001', ada({ tableIds: [t2], updatedAt: '2026-11-21T18:10:00Z' })),
    );
    expect(occupied).toMatchObject({
      name: 'ProviderApiError',
      status: 409,
      code: 'table_occupied',
      occupiedBy: { orderId: walkIn['id'], reservationExternalId: null },
      details: [],
      requestId: expect.any(String),
    });
    expect(occupied).toBeInstanceOf(Error);

    // 7. Moving it to table 3 works: table.freed (moved) for 1, table.occupied for 3.
    const moved = await sdk.updateReservation(
      'r-1001',
      ada({ covers: 3, tableIds: [t3], updatedAt: '2026-11-21T18:15:00Z' }),
    );
    expect(moved.outcome).toBe('applied');

    // 8. Cancelling never touches the order: it belongs to the till.
    const cancelled = await sdk.updateReservation(
      'r-1001',
      ada({ status: 'cancelled', covers: 3, tableIds: [t3], updatedAt: '2026-11-21T18:20:00Z' }),
    );
    expect(cancelled).toMatchObject({ outcome: 'applied', reservation: { status: 'cancelled' } });
    const open = await h.openOrders(location);
    expect(open.map((order) => order['tableIds'])).toEqual(expect.arrayContaining([[t2], [t3]]));

    // 9. Reconcile: what the service holds for the evening (cancelled reservations included).
    const evening = await sdk.listReservations({ from: '2026-11-21T00:00Z', to: '2026-11-22T00:00Z' });
    expect(evening.reservations.map((r) => [r.externalId, r.status])).toEqual([['r-1001', 'cancelled']]);

    // 10. The webhooks the receiver got, verified by the SDK, in locationEventSequence order.
    const events = await receiver.until(() => {
      const got = verifiedAt(hooks, secret);
      return got.length >= 6 ? got : undefined;
    });
    expect(events.map((e) => e.data.locationEventSequence)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(events.map(summary)).toEqual([
      { type: 'floorplan.published', version: 1 },
      { type: 'table.occupied', tableId: t1, reservation: 'r-1001', covers: 2 },
      { type: 'table.occupied', tableId: t2, reservation: null, covers: 3 },
      { type: 'table.freed', tableId: t1, reservation: 'r-1001', reason: 'moved' },
      { type: 'table.occupied', tableId: t3, reservation: 'r-1001', covers: 3 },
      { type: 'table.spend_updated', tableIds: [t3], covers: 3 },
    ]);
  });

  it('When a delivery is forged, altered or signed with another secret, then the verifier throws WebhookVerificationError', async () => {
    const location = await h.location({ plan: 'published', tables: 2 });
    const sdk = sdkFor(location.key);
    const hooks = `/hooks/${location.id}`;
    const { secret } = await sdk.putWebhookEndpoint({ url: `${receiver.origin}${hooks}` });
    await h.walkIn(location, [location.tables[0]!]);
    const [delivery] = await receiver.until(() =>
      receiver.at(hooks).length > 0 ? receiver.at(hooks) : undefined,
    );
    const genuine = delivery as Received;
    const other = `whsec_${randomBytes(24).toString('base64')}`;

    expect(verifyWebhook(secret, Buffer.from(genuine.body), genuine.headers).type).toBe('table.occupied');
    const attempts: [string, () => unknown][] = [
      [
        'altered',
        () => verifyWebhook(secret, genuine.body.replace('"covers":2', '"covers":9'), genuine.headers),
      ],
      ['other secret', () => verifyWebhook(other, genuine.body, genuine.headers)],
      [
        'unsigned',
        () => verifyWebhook(secret, genuine.body, { ...genuine.headers, 'webhook-signature': undefined }),
      ],
      ['not a secret', () => verifyWebhook('nonsense', genuine.body, genuine.headers)],
    ];
    for (const [what, attempt] of attempts) {
      expect({ what, thrown: thrownBy(attempt) }).toEqual({
        what,
        thrown: expect.objectContaining({ name: 'WebhookVerificationError' }),
      });
      expect(thrownBy(attempt)).toBeInstanceOf(WebhookVerificationError);
    }
  });

  it('When the provider manages its endpoint with the SDK, then rotate, deliveries, redeliver and delete answer as documented', async () => {
    const location = await h.location({ plan: 'published', tables: 2 });
    const sdk = sdkFor(location.key);
    const hooks = `/hooks/${location.id}`;
    const first = await sdk.putWebhookEndpoint({
      url: `${receiver.origin}${hooks}`,
      events: ['table.occupied'],
    });
    await h.walkIn(location, [location.tables[0]!]);
    // A delivery is recorded before it is sent: once the receiver has it, the list shows it.
    await receiver.until(() => receiver.at(hooks)[0]);
    const { deliveries } = await sdk.listWebhookDeliveries();
    expect(deliveries.map((d) => d.eventType)).toEqual(['table.occupied']);

    expect(await sdk.redeliverWebhook(deliveries[0]!.id)).toEqual({ deliveryId: deliveries[0]!.id });
    const rotated = await sdk.rotateWebhookSecret();
    expect(rotated.secret).not.toBe(first.secret);
    expect((await sdk.getWebhookEndpoint()).secret).toBe(rotated.secret);

    await expect(sdk.deleteWebhookEndpoint()).resolves.toBeUndefined();
    expect(await refusal(sdk.getWebhookEndpoint())).toMatchObject({ status: 404, code: 'not_found' });
    expect(await refusal(sdk.redeliverWebhook('no-such-delivery'))).toMatchObject({ status: 404 });
  });

  it('When a call is refused, then ProviderApiError carries the envelope: unauthorized, validation_failed details, unknown_reservation', async () => {
    const location = await h.location({ plan: 'published', tables: 2 });
    const sdk = sdkFor(location.key);

    const unauthorized = await refusal(sdkFor('test_sk_live_wrong').getFloorPlan());
    expect(unauthorized).toMatchObject({ status: 401, code: 'unauthorized', occupiedBy: null });
    expect(unauthorized.message.length).toBeGreaterThan(0);

    const invalid = await refusal(
      sdk.createReservation({
        externalId: 'r-bad',
        status: 'confirmed',
        covers: 0,
        startsAt: '2026-11-21T19:00:00Z',
        updatedAt: '2026-11-20T10:00:00Z',
      }),
    );
    expect(invalid).toMatchObject({ status: 422, code: 'validation_failed' });
    expect(invalid.details).toEqual([expect.objectContaining({ path: '/covers' })]);

    const unknown = await refusal(
      sdk.updateReservation('r-missing', {
        externalId: 'r-missing',
        status: 'confirmed',
        covers: 2,
        startsAt: '2026-11-21T19:00:00Z',
        updatedAt: '2026-11-20T10:00:00Z',
      }),
    );
    expect(unknown).toMatchObject({ status: 404, code: 'unknown_reservation', details: [] });
  });
});

function thrownBy(attempt: () => unknown): unknown {
  try {
    attempt();
  } catch (error) {
    return error;
  }
  return undefined;
}
