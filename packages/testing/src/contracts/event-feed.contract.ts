import { Instant, type DomainEvent, type EventType, type StoredEvent } from '@pis/domain';
import { aRoom } from '@pis/domain/test-support';
import { anOrder } from '@pis/domain/test-support';
import { commit, useAdapters, type InspectableAdapterSet } from './adapter-set';
import { givenLocationRow, publishWorkingPlan } from './fixtures';
import { anEvent } from './outbox.contract';
import { anEndpoint } from './webhook-endpoint.contract';

const wallClock = () => Instant.fromEpochMillis(Date.now());
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const published = (n: number): DomainEvent => ({
  type: 'floorplan.published',
  occurredAt: anEvent(n).occurredAt,
  data: {
    version: n,
    publishedAt: anEvent(n).occurredAt.toIso(),
    changes: { added: [], deactivated: [], reactivated: [], relabelled: [], updated: [] },
  },
});

/**
 * `EventFeedQueries`, `EventRecoveryRepository` and `EventRetention`. The store's clock is real
 * time on every adapter, and retention is global (every location's events), so retention
 * cases cut at "now" between two appends and look at their own fresh location only.
 */
export function describeEventFeedContract(name: string, make: () => Promise<InspectableAdapterSet>): void {
  describe(`${name}: event feed contract`, () => {
    const adapters = useAdapters(make);
    const feed = (locationId: string, after = 0, limit = 100, types: EventType[] | null = null) =>
      adapters().queries.events.page({ locationId, after, limit, types });

    async function givenEvents(
      events: DomainEvent[],
    ): Promise<{ locationId: string; stored: StoredEvent[] }> {
      const location = await givenLocationRow(adapters().uow);
      const stored = await commit(adapters().uow, (tx) => tx.outbox.append(location.id, events));
      return { locationId: location.id, stored };
    }

    const deliveriesOf = (locationId: string) =>
      adapters().queries.webhooks.listDeliveries({ locationId, status: null, after: null, limit: 100 });

    async function pruneAll(olderThan: Instant, batchSize: number): Promise<number[]> {
      const batches: number[] = [];
      for (;;) {
        const pruned = await adapters().retention.prune(olderThan, batchSize);
        if (pruned === 0) return batches;
        batches.push(pruned);
      }
    }

    it('When the feed is read, then the events after `after` come in ascending sequence, at most `limit`, each as stored', async () => {
      const { locationId, stored } = await givenEvents([anEvent(1), anEvent(2), anEvent(3), anEvent(4)]);

      const page = await feed(locationId, 1, 2);

      expect(page).toStrictEqual({ events: stored.slice(1, 3), oldestRetainedSequence: 1 });
      expect((await feed(locationId, 4)).events).toEqual([]);
      expect((await feed(locationId)).events).toStrictEqual(stored);
    });

    it('When the feed is read with types, then only events of those types come, still in sequence', async () => {
      const { locationId, stored } = await givenEvents([anEvent(1), published(2), anEvent(3), published(4)]);

      const page = await feed(locationId, 0, 100, ['floorplan.published']);

      expect(page.events.map((e) => e.sequence)).toEqual([2, 4]);
      expect(page.events).toStrictEqual([stored[1], stored[3]]);
    });

    it("When two locations have events, then each feed holds only its own location's", async () => {
      const one = await givenEvents([anEvent(1), anEvent(2)]);
      const two = await givenEvents([anEvent(3)]);

      expect((await feed(one.locationId)).events.map((e) => e.id)).toEqual(one.stored.map((e) => e.id));
      expect((await feed(two.locationId)).events.map((e) => e.id)).toEqual(two.stored.map((e) => e.id));
      expect((await feed('00000000-0000-4000-8000-00000000abcd')).events).toEqual([]);
    });

    it('When the table state is read, then it holds the last sequence, the published plan and exactly the open orders', async () => {
      const location = await givenLocationRow(adapters().uow);
      const room = aRoom(3);
      const [t1, t2, t3] = room.tables.map((t) => t.id);
      const plan = await commit(adapters().uow, async (tx) => {
        await tx.floorPlans.replaceDraft(location.id, [room]);
        return publishWorkingPlan(tx, location.id);
      });
      const open = anOrder(location.id, [t1!, t2!]);
      const closed = anOrder(location.id, [t3!]);
      await commit(adapters().uow, async (tx) => {
        await tx.orders.insert(open);
        await tx.orders.insert(closed);
        await tx.orders.update({ ...closed, status: 'closed', closedAt: closed.openedAt.plusMicros(1n) });
        await tx.outbox.append(location.id, [anEvent(1), anEvent(2)]);
      });

      const state = await adapters().queries.tableState.read(location.id);

      expect(state).toStrictEqual({ asOfSequence: 2, plan, openOrders: [open] });
    });

    it('When a location has no plan and no events, then the table state is empty at sequence 0', async () => {
      const location = await givenLocationRow(adapters().uow);

      expect(await adapters().queries.tableState.read(location.id)).toStrictEqual({
        asOfSequence: 0,
        plan: null,
        openOrders: [],
      });
    });

    it('When recover runs after a sequence, then each later subscribed event gets a new pending delivery, due in sequence order', async () => {
      const { locationId, stored } = await givenEvents([anEvent(1), published(2), anEvent(3), anEvent(4)]);
      const endpoint = anEndpoint(locationId, { events: ['table.occupied'] });
      await commit(adapters().uow, (tx) => tx.webhookEndpoints.save(endpoint));

      const queued = await commit(adapters().uow, (tx) =>
        tx.eventRecovery.requeue(endpoint, { afterSequence: 1 }),
      );

      expect(queued).toEqual({ queued: 2 });
      const deliveries = await deliveriesOf(locationId);
      const byDue = [...deliveries].sort((a, b) => a.nextAttemptAt!.compare(b.nextAttemptAt!));
      expect(byDue.map((d) => [d.sequence, d.eventId, d.eventType])).toEqual(
        [stored[2]!, stored[3]!].map((e) => [e.sequence, e.id, e.type]),
      );
      for (const d of deliveries) {
        expect(d).toMatchObject({ endpointId: endpoint.id, status: 'pending', attempts: [] });
      }
    });

    it('When an event is recovered twice, then it has two delivery records, both pending', async () => {
      const { locationId, stored } = await givenEvents([anEvent(1)]);
      const endpoint = anEndpoint(locationId, { events: ['table.occupied'] });
      await commit(adapters().uow, (tx) => tx.webhookEndpoints.save(endpoint));

      for (let i = 0; i < 2; i += 1) {
        await commit(adapters().uow, (tx) => tx.eventRecovery.requeue(endpoint, { afterSequence: 0 }));
      }

      const deliveries = await deliveriesOf(locationId);
      expect(deliveries.map((d) => d.eventId)).toEqual([stored[0]!.id, stored[0]!.id]);
      expect(new Set(deliveries.map((d) => d.id)).size).toBe(2);
    });

    it('When recover runs since an instant, then the events that happened strictly after it are queued', async () => {
      const { locationId, stored } = await givenEvents([anEvent(1), anEvent(2), anEvent(3)]);
      const endpoint = anEndpoint(locationId, { events: ['table.occupied'] });
      await commit(adapters().uow, (tx) => tx.webhookEndpoints.save(endpoint));

      const queued = await commit(adapters().uow, (tx) =>
        tx.eventRecovery.requeue(endpoint, { since: stored[0]!.occurredAt }),
      );

      expect(queued).toEqual({ queued: 2 });
    });

    it('When events older than a cut are pruned in batches, then they go with their deliveries, newer ones stay, and the feed says where it starts', async () => {
      const { locationId, stored } = await givenEvents([anEvent(1), anEvent(2), anEvent(3)]);
      const endpoint = anEndpoint(locationId, { events: ['table.occupied'] });
      await commit(adapters().uow, (tx) => tx.webhookEndpoints.save(endpoint));
      await commit(adapters().uow, (tx) => tx.eventRecovery.requeue(endpoint, { afterSequence: 0 }));
      await pause(20);
      const cut = wallClock();
      await pause(20);
      const newer = await commit(adapters().uow, (tx) =>
        tx.outbox.append(locationId, [anEvent(4), anEvent(5)]),
      );

      const batches = await pruneAll(cut, 2);

      expect(batches.every((n) => n >= 1 && n <= 2)).toBe(true);
      const page = await feed(locationId);
      expect(page).toStrictEqual({ events: newer, oldestRetainedSequence: 4 });
      expect(await deliveriesOf(locationId)).toEqual([]);
      expect(await adapters().events(locationId)).toStrictEqual(newer);
      expect(stored.map((e) => e.sequence)).toEqual([1, 2, 3]);
    });

    it('When events were pruned, then recover from before them is expired, from after them queues the rest, and new events continue the sequence', async () => {
      const { locationId } = await givenEvents([anEvent(1), anEvent(2)]);
      const endpoint = anEndpoint(locationId, { events: ['table.occupied'] });
      await commit(adapters().uow, (tx) => tx.webhookEndpoints.save(endpoint));
      await pause(20);
      const cut = wallClock();
      await pruneAll(cut, 100);

      const before = await commit(adapters().uow, (tx) =>
        tx.eventRecovery.requeue(endpoint, { afterSequence: 1 }),
      );
      const since = await commit(adapters().uow, (tx) =>
        tx.eventRecovery.requeue(endpoint, { since: anEvent(0).occurredAt }),
      );
      const at = await commit(adapters().uow, (tx) =>
        tx.eventRecovery.requeue(endpoint, { afterSequence: 2 }),
      );
      const next = await commit(adapters().uow, (tx) => tx.outbox.append(locationId, [anEvent(3)]));

      expect(before).toBe('expired');
      expect(since).toBe('expired');
      expect(at).toEqual({ queued: 0 });
      expect(next.map((e) => e.sequence)).toEqual([3]);
      expect(await feed(locationId)).toStrictEqual({ events: next, oldestRetainedSequence: 3 });
      expect((await adapters().queries.tableState.read(locationId)).asOfSequence).toBe(3);
    });
  });
}
