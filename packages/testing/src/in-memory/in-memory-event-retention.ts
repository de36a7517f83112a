import type { Instant } from '@pis/domain';
import type { State } from '@pis/domain/in-memory';
import type { EventRetention } from '@pis/ports';

/** What retention needs of the store: one atomic step over the committed state. */
export interface RetentionHost {
  atomically<T>(step: (state: State) => { state: State; value: T }): Promise<T>;
}

/** Prunes the oldest events (by when they joined the outbox) with their deliveries. */
export function inMemoryEventRetention(host: RetentionHost): EventRetention {
  return {
    prune: (olderThan: Instant, batchSize: number) =>
      host.atomically((state) => {
        const doomed = [...state.events.values()]
          .flat()
          .filter((e) => state.appendedAt.get(e.id)!.compare(olderThan) < 0)
          .sort((a, b) => state.appendedAt.get(a.id)!.compare(state.appendedAt.get(b.id)!))
          .slice(0, batchSize);
        if (doomed.length === 0) return { state, value: 0 };
        const gone = new Set(doomed.map((e) => e.id));
        const events = new Map(state.events);
        const appendedAt = new Map(state.appendedAt);
        const relayed = new Map(state.relayed);
        const prunedThrough = new Map(state.prunedThrough);
        for (const event of doomed) {
          appendedAt.delete(event.id);
          relayed.delete(event.id);
          const mark = prunedThrough.get(event.locationId);
          if (mark === undefined || event.sequence > mark.sequence) {
            prunedThrough.set(event.locationId, { sequence: event.sequence, occurredAt: event.occurredAt });
          }
        }
        for (const locationId of new Set(doomed.map((e) => e.locationId))) {
          events.set(
            locationId,
            events.get(locationId)!.filter((e) => !gone.has(e.id)),
          );
        }
        const deliveries = new Map(state.deliveries);
        const deliveryRuns = new Map(state.deliveryRuns);
        for (const delivery of state.deliveries.values()) {
          if (!gone.has(delivery.eventId)) continue;
          deliveries.delete(delivery.id);
          deliveryRuns.delete(delivery.id);
        }
        const next = { ...state, events, appendedAt, relayed, prunedThrough, deliveries, deliveryRuns };
        return { state: next, value: doomed.length };
      }),
  };
}
