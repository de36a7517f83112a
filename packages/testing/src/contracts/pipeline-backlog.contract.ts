import { Instant } from '@pis/domain';
import { commit, useAdapters, type InspectableAdapterSet } from './adapter-set';
import { givenLocationRow } from './fixtures';
import { anEvent } from './outbox.contract';
import { anEndpoint } from './webhook-endpoint.contract';

const LEASE_MS = 60_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * `PipelineBacklog`: store-wide measures on the store's clock (real time on every adapter).
 * Cases of the same suite share the store and run one after the other, so each relays
 * everything first and compares against what it measured before its own writes.
 */
export function describePipelineBacklogContract(
  name: string,
  make: () => Promise<InspectableAdapterSet>,
): void {
  describe(`${name}: pipeline backlog contract`, () => {
    const adapters = useAdapters(make);

    async function relayAll(): Promise<void> {
      while ((await adapters().pipeline.relay.relayBatch(500)).events > 0);
    }

    async function givenEndpointLocation(): Promise<string> {
      const location = await givenLocationRow(adapters().uow);
      await commit(adapters().uow, (tx) => tx.webhookEndpoints.save(anEndpoint(location.id)));
      return location.id;
    }

    it('When committed events wait for the relay, then the lag is at least the age of the oldest and they are counted; once relayed, the lag is 0 and none is counted', async () => {
      await relayAll();
      const idle = await adapters().backlog.measure();
      const locationId = await givenEndpointLocation();

      await commit(adapters().uow, (tx) => tx.outbox.append(locationId, [anEvent(1)]));
      await sleep(300);
      await commit(adapters().uow, (tx) => tx.outbox.append(locationId, [anEvent(2)]));
      const waiting = await adapters().backlog.measure();
      await relayAll();
      const relayed = await adapters().backlog.measure();

      expect(idle).toMatchObject({ outboxLagSeconds: 0, unrelayedEvents: 0 });
      expect(waiting.outboxLagSeconds).toBeGreaterThanOrEqual(0.3);
      expect(waiting.outboxLagSeconds).toBeLessThan(60);
      expect(waiting.unrelayedEvents).toBe(2);
      expect(relayed).toMatchObject({ outboxLagSeconds: 0, unrelayedEvents: 0 });
    });

    it('When deliveries are made, then they count as pending until an attempt settles them; one to retry still counts', async () => {
      await relayAll();
      const before = await adapters().backlog.measure();
      const locationId = await givenEndpointLocation();
      await commit(adapters().uow, (tx) => tx.outbox.append(locationId, [anEvent(1), anEvent(2)]));
      await relayAll();
      const made = await adapters().backlog.measure();
      const claimed = (await adapters().pipeline.leases.claimDue(100_000, LEASE_MS)).filter(
        (d) => d.locationId === locationId,
      );
      const attempt = (status: number) => ({
        attemptedAt: Instant.fromEpochMillis(Date.now()),
        responseStatus: status,
        durationMs: 5,
        error: status < 300 ? null : `the receiver answered ${status}`,
      });

      const health = { disableAfterFailingMs: 3_600_000, failingReason: 'failing for an hour' };
      await adapters().pipeline.attempts.record(claimed[0]!, attempt(204), { kind: 'succeeded' }, health);
      await adapters().pipeline.attempts.record(
        claimed[1]!,
        attempt(500),
        { kind: 'retry', delayMs: 60_000 },
        health,
      );
      const settled = await adapters().backlog.measure();

      expect(claimed).toHaveLength(2);
      expect(made.pendingDeliveries).toBe(before.pendingDeliveries + 2);
      expect(settled.pendingDeliveries).toBe(before.pendingDeliveries + 1);
    });
  });
}
