import { EVENT_TYPES, Instant, type WebhookDelivery } from '@pis/domain';
import { Webhook } from 'standardwebhooks';
import type { DeliverySettings } from '../../src';
import {
  appendEvents,
  deleteEndpoint,
  deliveries,
  givenEndpoint,
  givenLocation,
  givenProviderEndpoint,
  occupiedEvents,
  oneEventOfEveryType,
  openHarness,
  requestRedelivery,
  rotateEndpointSecret,
  waitForDeliveries,
  type Harness,
} from './harness';
import { Receiver, verify } from '@pis/testing/webhooks';

export interface RunningDelivery {
  wake(): void;
  stop(): Promise<void>;
}

export type StartDelivery = (h: Harness, settings: DeliverySettings) => Promise<RunningDelivery>;

/** Two retries, quickly; loopback receivers over http. */
export const TEST_SETTINGS: DeliverySettings = {
  retryDelaysMs: [150, 300],
  timeoutMs: 1_500,
  allowPrivateUrls: true,
  allowInsecureUrls: true,
  // The behaviours change endpoints between attempts a few milliseconds apart.
  endpointCacheMs: 0,
};

const settled = (all: WebhookDelivery[], n: number) =>
  all.length === n && all.every((d) => d.status !== 'pending');
const statuses = (d: WebhookDelivery) => d.attempts.map((a) => a.responseStatus);

/**
 * What every delivery mode (BullMQ worker, in-process poller) must do, run against real
 * PostgreSQL and a real HTTP receiver on loopback.
 */
export function describeDeliveryBehaviour(
  mode: string,
  start: StartDelivery,
  open: () => Promise<Harness> = openHarness,
): void {
  describe(`${mode}: webhook delivery`, () => {
    let h: Harness;
    let running: RunningDelivery;
    let receiver: Receiver;

    beforeAll(async () => {
      h = await open();
      running = await start(h, TEST_SETTINGS);
    });
    afterAll(async () => {
      await running?.stop();
      await h?.close();
    });
    beforeEach(async () => {
      receiver = await Receiver.start();
    });
    afterEach(async () => {
      await receiver.close();
    });

    async function givenSubscribedLocation(events: Parameters<typeof givenEndpoint>[3] = null) {
      const locationId = await givenLocation(h);
      const endpoint = await givenEndpoint(h, locationId, receiver.url, events);
      return { locationId, endpoint, secret: endpoint.secrets[0]!.secret };
    }

    it('When a location has its own endpoint and another provider’s, then each receives the event once, signed with its own secret, the other provider reading null for the location’s reservation', async () => {
      const { locationId, endpoint, secret } = await givenSubscribedLocation(['table.occupied']);
      const theirReceiver = await Receiver.start();
      try {
        const theirs = await givenProviderEndpoint(h, locationId, theirReceiver.url);
        const occupied = occupiedEvents(1)[0]!;
        if (occupied.type !== 'table.occupied') throw new Error('occupiedEvents makes table.occupied');
        const [event] = await appendEvents(h, locationId, [
          { ...occupied, data: { ...occupied.data, reservationExternalId: 'r-own' } },
        ]);
        running.wake();

        const all = await waitForDeliveries(h, locationId, (ds) => settled(ds, 2));
        expect(all.map((d) => [d.endpointId, d.status]).sort()).toEqual(
          [
            [endpoint.id, 'succeeded'],
            [theirs.id, 'succeeded'],
          ].sort(),
        );
        const ours = verify(receiver.requests[0]!, secret) as { data: Record<string, unknown> };
        const their = verify(theirReceiver.requests[0]!, theirs.secrets[0]!.secret) as {
          data: Record<string, unknown>;
        };
        expect(ours.data).toMatchObject({ reservationExternalId: 'r-own', locationId });
        expect(their.data).toMatchObject({ reservationExternalId: null, locationId });
        expect([receiver.requests.length, theirReceiver.requests.length]).toEqual([1, 1]);
        expect(theirReceiver.requests[0]!.headers['webhook-id']).toBe(event!.id);
        expect(() => verify(theirReceiver.requests[0]!, secret)).toThrow();
      } finally {
        await theirReceiver.close();
      }
    });

    it('When a provider-scope endpoint’s provider is granted the location, then it receives the connection.granted and the location’s next event once each, signed with its secret, with data.locationId', async () => {
      const { locationId, endpoint } = await givenSubscribedLocation(['table.occupied']);
      const wideReceiver = await Receiver.start();
      try {
        const wide = await givenProviderEndpoint(h, locationId, wideReceiver.url, 'provider');
        const [event] = await appendEvents(h, locationId, occupiedEvents(1));
        running.wake();

        const all = await waitForDeliveries(h, locationId, (ds) => settled(ds, 3));
        expect(all.map((d) => [d.endpointId, d.eventType, d.sequence, d.status]).sort()).toEqual(
          [
            [endpoint.id, 'table.occupied', event!.sequence, 'succeeded'],
            [wide.id, 'table.occupied', event!.sequence, 'succeeded'],
            [wide.id, 'connection.granted', null, 'succeeded'],
          ].sort(),
        );
        const bodies = wideReceiver.requests.map((r) => verify(r, wide.secrets[0]!.secret)) as {
          type: string;
          data: Record<string, unknown>;
        }[];
        expect(bodies.map((b) => b.type).sort()).toEqual(['connection.granted', 'table.occupied']);
        expect(bodies.find((b) => b.type === 'connection.granted')!.data).toEqual({
          locationId,
          locationName: 'The venue',
          occurredAt: expect.any(String),
        });
        expect(bodies.find((b) => b.type === 'table.occupied')!.data).toMatchObject({
          locationId,
          locationEventSequence: event!.sequence,
        });
      } finally {
        await wideReceiver.close();
      }
    });

    it('When an event of every type commits, then each arrives once, as the reference describes it, and verifies with standardwebhooks', async () => {
      const { locationId, secret } = await givenSubscribedLocation();

      const stored = await appendEvents(h, locationId, oneEventOfEveryType());
      const n = stored.length;
      expect(new Set(stored.map((e) => e.type))).toEqual(new Set(EVENT_TYPES));
      running.wake();
      await receiver.waitFor(() => receiver.ids().size === n);
      const done = await waitForDeliveries(h, locationId, (all) => settled(all, n));

      const bodies = receiver.requests.map((r) => verify(r, secret));
      expect(bodies).toEqual(
        expect.arrayContaining(
          stored.map((event) => ({
            type: event.type,
            timestamp: event.occurredAt.toIso(),
            data: { ...event.data, locationId: event.locationId, locationEventSequence: event.sequence },
          })),
        ),
      );
      expect(receiver.requests).toHaveLength(n);
      for (const request of receiver.requests) {
        expect(request.headers['content-type']).toBe('application/json');
        expect(stored.map((e) => e.id)).toContain(request.headers['webhook-id']);
      }
      expect(done.map((d) => [d.status, statuses(d)])).toEqual(Array(n).fill(['succeeded', [204]]));
    });

    it('When the receiver fails twice, then the third attempt delivers it, with the same webhook-id every time', async () => {
      const { locationId, secret } = await givenSubscribedLocation();
      receiver.respond = (r) => ({ status: r.nth <= 2 ? 500 : 200 });

      const [event] = await appendEvents(h, locationId, occupiedEvents(1));
      running.wake();
      const [delivery] = await waitForDeliveries(h, locationId, (all) => settled(all, 1));

      expect(delivery).toMatchObject({ status: 'succeeded', nextAttemptAt: null });
      expect(statuses(delivery!)).toEqual([500, 500, 200]);
      expect(delivery!.attempts[0]!.error).toBe('the receiver answered 500');
      expect(receiver.requests.map((r) => r.headers['webhook-id'])).toEqual(Array(3).fill(event!.id));
      for (const request of receiver.requests) expect(() => verify(request, secret)).not.toThrow();
    });

    it('When the receiver does not answer within the timeout, then the attempt is recorded as such and retried', async () => {
      const { locationId } = await givenSubscribedLocation();
      receiver.respond = (r) => ({ status: 204, delayMs: r.nth === 1 ? 2_000 : 0 });

      await appendEvents(h, locationId, occupiedEvents(1));
      running.wake();
      const [delivery] = await waitForDeliveries(h, locationId, (all) => settled(all, 1));

      expect(delivery!.status).toBe('succeeded');
      expect(delivery!.attempts.map((a) => [a.responseStatus, a.error])).toEqual([
        [null, `no response within ${TEST_SETTINGS.timeoutMs} ms`],
        [204, null],
      ]);
    });

    it('When the receiver answers 410 Gone, then the delivery fails at once and the endpoint is disabled; later events get no delivery', async () => {
      const { locationId } = await givenSubscribedLocation();
      receiver.respond = () => ({ status: 410 });

      await appendEvents(h, locationId, occupiedEvents(1));
      running.wake();
      const [gone] = await waitForDeliveries(h, locationId, (all) => settled(all, 1));
      const endpoint = await h.persistence.queries.webhooks.findEndpoint(locationId);
      await appendEvents(h, locationId, occupiedEvents(1));
      running.wake();
      await waitForUnrelayed(h, locationId, 0);

      expect(gone).toMatchObject({ status: 'failed', nextAttemptAt: null });
      expect(statuses(gone!)).toEqual([410]);
      expect(endpoint!.disabledAt).not.toBeNull();
      expect(await deliveries(h, locationId)).toHaveLength(1);
      expect(receiver.requests).toHaveLength(1);
    });

    it('When every scheduled attempt fails, then the delivery fails; a redelivery starts the schedule over and delivers it', async () => {
      const { locationId, secret } = await givenSubscribedLocation();
      let failUntil = 3;
      receiver.respond = (r) => ({ status: r.nth <= failUntil ? 503 : 204 });

      const [event] = await appendEvents(h, locationId, occupiedEvents(1));
      running.wake();
      const [failed] = await waitForDeliveries(h, locationId, (all) => settled(all, 1));
      failUntil = 5; // the redelivery's own first two attempts fail too
      const accepted = await requestRedelivery(h, locationId, failed!.id);
      running.wake();
      const [redelivered] = await waitForDeliveries(h, locationId, (all) => all[0]?.status === 'succeeded');

      expect(failed).toMatchObject({ status: 'failed', nextAttemptAt: null });
      expect(statuses(failed!)).toEqual([503, 503, 503]);
      expect(accepted).toBe(true);
      expect(statuses(redelivered!)).toEqual([503, 503, 503, 503, 503, 204]);
      expect(new Set(receiver.requests.map((r) => r.headers['webhook-id']))).toEqual(new Set([event!.id]));
      expect(() => verify(receiver.requests.at(-1)!, secret)).not.toThrow();
    });

    it('When the secret was rotated, then during the overlap a receiver holding either secret verifies every delivery', async () => {
      const { locationId, secret: previous } = await givenSubscribedLocation();
      const rotated = await rotateEndpointSecret(h, locationId);
      const current = rotated.secrets[0]!.secret;

      const n = (await appendEvents(h, locationId, oneEventOfEveryType())).length;
      running.wake();
      await waitForDeliveries(h, locationId, (all) => settled(all, n));

      expect(receiver.requests).toHaveLength(n);
      for (const request of receiver.requests) {
        expect(String(request.headers['webhook-signature']).split(' ')).toHaveLength(2);
        expect(() => new Webhook(previous).verify(request.body, headersOf(request))).not.toThrow();
        expect(() => new Webhook(current).verify(request.body, headersOf(request))).not.toThrow();
      }
    });

    it('When the overlap of a rotation has ended (24 h), then only the new secret signs: the old one no longer verifies', async () => {
      const { locationId, secret: previous } = await givenSubscribedLocation();
      const rotatedAt = Instant.fromEpochMillis(Date.now() - 25 * 3_600_000);
      const rotated = await rotateEndpointSecret(h, locationId, rotatedAt);
      const current = rotated.secrets[0]!.secret;

      await appendEvents(h, locationId, occupiedEvents(1));
      running.wake();
      await waitForDeliveries(h, locationId, (all) => settled(all, 1));

      expect(receiver.requests).toHaveLength(1);
      const request = receiver.requests[0]!;
      expect(String(request.headers['webhook-signature']).split(' ')).toHaveLength(1);
      expect(() => new Webhook(current).verify(request.body, headersOf(request))).not.toThrow();
      expect(() => new Webhook(previous).verify(request.body, headersOf(request))).toThrow();
    });

    it('When the endpoint stops subscribing to a type before a retry, then the delivery fails with that reason and nothing more is sent', async () => {
      const { locationId } = await givenSubscribedLocation();
      receiver.respond = async (r) => {
        if (r.nth === 1) await givenEndpoint(h, locationId, receiver.url, ['table.freed']);
        return { status: 500 };
      };

      await appendEvents(h, locationId, occupiedEvents(1));
      running.wake();
      const [delivery] = await waitForDeliveries(h, locationId, (all) => settled(all, 1));

      expect(delivery!.status).toBe('failed');
      expect(delivery!.attempts.map((a) => [a.responseStatus, a.error])).toEqual([
        [500, 'the receiver answered 500'],
        [null, 'the webhook endpoint no longer subscribes to table.occupied'],
      ]);
      expect(receiver.requests).toHaveLength(1);
    });

    it('When the endpoint is deleted before a retry, then the delivery fails with that reason and nothing more is sent', async () => {
      const { locationId } = await givenSubscribedLocation();
      receiver.respond = async (r) => {
        if (r.nth === 1) await deleteEndpoint(h, locationId);
        return { status: 500 };
      };

      await appendEvents(h, locationId, occupiedEvents(1));
      running.wake();
      const [delivery] = await waitForDeliveries(h, locationId, (all) => settled(all, 1));

      expect(delivery!.attempts.map((a) => a.error)).toEqual([
        'the receiver answered 500',
        'the webhook endpoint this delivery was made for no longer exists',
      ]);
      expect(receiver.requests).toHaveLength(1);
    });

    it('When the endpoint subscribes to some types only, then only those events get deliveries', async () => {
      const { locationId } = await givenSubscribedLocation(['table.freed', 'floorplan.published']);

      await appendEvents(h, locationId, oneEventOfEveryType());
      running.wake();
      await waitForUnrelayed(h, locationId, 0);
      const done = await waitForDeliveries(h, locationId, (all) => settled(all, 2));

      expect(done.map((d) => d.eventType).sort()).toEqual(['floorplan.published', 'table.freed']);
      expect(receiver.requests.map((r) => (JSON.parse(r.body) as { type: string }).type).sort()).toEqual([
        'floorplan.published',
        'table.freed',
      ]);
    });

    it('When a location has no endpoint, then its events are relayed without a delivery', async () => {
      const locationId = await givenLocation(h);

      await appendEvents(h, locationId, occupiedEvents(3));
      running.wake();
      await waitForUnrelayed(h, locationId, 0);

      expect(await deliveries(h, locationId)).toEqual([]);
    });

    it('When a burst of events commits, then every sequence arrives', async () => {
      const { locationId } = await givenSubscribedLocation();

      await appendEvents(h, locationId, occupiedEvents(200));
      running.wake();
      await receiver.waitFor(() => receiver.ids().size === 200, 30_000, '200 distinct deliveries');

      const sequences = receiver.requests.map(
        (r) => (JSON.parse(r.body) as { data: { locationEventSequence: number } }).data.locationEventSequence,
      );
      expect(new Set(sequences)).toEqual(new Set(Array.from({ length: 200 }, (_, i) => i + 1)));
    });
  });
}

function headersOf(request: { headers: Record<string, unknown> }): Record<string, string> {
  return Object.fromEntries(
    ['webhook-id', 'webhook-timestamp', 'webhook-signature'].map((n) => [n, String(request.headers[n])]),
  );
}

/** Waits until the location has `n` unrelayed outbox events. */
async function waitForUnrelayed(
  h: Harness,
  locationId: string,
  n: number,
  timeoutMs = 10_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const [row] = (await h.db.dataSource.query(
      `SELECT count(*)::int AS n FROM outbox_events WHERE location_id = $1 AND relayed_at IS NULL`,
      [locationId],
    )) as { n: number }[];
    if (row!.n === n) return;
    if (Date.now() > deadline) throw new Error(`${row!.n} events are still unrelayed`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export { verify };
