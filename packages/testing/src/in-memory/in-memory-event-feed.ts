import {
  withinSpans,
  type Clock,
  type DeliverableEvent,
  type EventFeedQueries,
  type EventRecoveryRepository,
  type EventRetention,
  type FeedPage,
  type FeedQuery,
  type IdGenerator,
  type Instant,
  type RecoverFrom,
  type TableStateRead,
  type WebhookEndpoint,
} from '@pis/domain';
import { detach } from './detach';
import { compareIds, lastSequence, scoped, type Draft, type Reader, type State } from './state';

const oldestRetained = (read: Reader, locationId: string): number =>
  (read.map('prunedThrough').get(locationId)?.sequence ?? 0) + 1;

/** The feed and the snapshot over the committed state (always one consistent snapshot). */
export class InMemoryEventFeedQueries implements EventFeedQueries {
  constructor(private readonly read: () => Reader) {}

  async page({ locationId, providerId, after, limit, types }: FeedQuery): Promise<FeedPage> {
    const read = this.read();
    const spans =
      providerId === undefined
        ? null
        : (read.map('connections').get(scoped(locationId, providerId))?.spans ?? []);
    const events = (read.map('events').get(locationId) ?? [])
      .filter((e) => e.sequence > after && (types === null || types.includes(e.type)))
      .filter((e) => spans === null || withinSpans(spans, e.sequence))
      .slice(0, limit);
    return { events: detach(events), oldestRetainedSequence: oldestRetained(read, locationId) };
  }

  async tableState(locationId: string): Promise<TableStateRead> {
    const read = this.read();
    return {
      asOfSequence: lastSequence(read, locationId),
      plan: detach(read.map('plans').get(locationId)?.published ?? null),
      openOrders: detach(
        [...read.map('orders').values()]
          .filter((o) => o.locationId === locationId && o.status === 'open')
          .sort((a, b) => a.openedAt.compare(b.openedAt) || compareIds(a.id, b.id)),
      ),
    };
  }
}

/** Recover inside a unit of work: new deliveries, due one microsecond apart in sequence order. */
export class InMemoryEventRecovery implements EventRecoveryRepository {
  constructor(
    private readonly draft: Draft,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
  ) {}

  async requeue(endpoint: WebhookEndpoint, from: RecoverFrom): Promise<{ queued: number } | 'expired'> {
    if (endpoint.locationId === null) return this.requeueProviderScope(endpoint, from);
    const mark = this.draft.get('prunedThrough', endpoint.locationId);
    const bySequence = 'afterSequence' in from;
    if (mark !== undefined) {
      const expired = bySequence ? from.afterSequence < mark.sequence : mark.occurredAt.isAfter(from.since);
      if (expired) return 'expired';
    }
    // Only what was committed while the endpoint's provider was connected to the location.
    const locationId = endpoint.locationId;
    const spans = this.draft.get('connections', scoped(locationId, endpoint.providerId))?.spans ?? [];
    const events = (this.draft.get('events', endpoint.locationId) ?? []).filter(
      (e) =>
        withinSpans(spans, e.sequence) &&
        endpoint.events.includes(e.type) &&
        (bySequence ? e.sequence > from.afterSequence : e.occurredAt.isAfter(from.since)),
    );
    return { queued: this.queue(endpoint, events) };
  }

  /** By time only: each connected location's covered events, then the provider's connection events. */
  private requeueProviderScope(endpoint: WebhookEndpoint, from: RecoverFrom): { queued: number } | 'expired' {
    if (!('since' in from)) throw new Error('a provider-scope endpoint recovers by time only');
    const events: DeliverableEvent[] = [];
    for (const { connection, spans } of this.draft.map('connections').values()) {
      if (connection.providerId !== endpoint.providerId) continue;
      const mark = this.draft.get('prunedThrough', connection.locationId);
      if (mark !== undefined && mark.occurredAt.isAfter(from.since)) return 'expired';
      events.push(
        ...(this.draft.get('events', connection.locationId) ?? []).filter(
          (e) =>
            withinSpans(spans, e.sequence) &&
            endpoint.events.includes(e.type) &&
            e.occurredAt.isAfter(from.since),
        ),
      );
    }
    for (const e of this.draft.map('connectionEvents').values()) {
      if (
        e.providerId === endpoint.providerId &&
        endpoint.events.includes(e.type) &&
        e.occurredAt.isAfter(from.since)
      )
        events.push(e);
    }
    return { queued: this.queue(endpoint, events) };
  }

  private queue(endpoint: WebhookEndpoint, events: DeliverableEvent[]): number {
    const now = this.clock.now();
    events.forEach((event, i) => {
      const id = this.ids.uuid();
      this.draft.put('deliveries', id, {
        id,
        locationId: event.locationId,
        endpointId: endpoint.id,
        eventId: event.id,
        eventType: event.type,
        sequence: event.sequence,
        status: 'pending',
        attempts: [],
        nextAttemptAt: now.plusMicros(BigInt(i + 1)),
        createdAt: now,
        updatedAt: now,
      });
      this.draft.put('deliveryRuns', id, {
        generation: 0,
        queuedGeneration: null,
        attemptCount: 0,
        recovered: true,
      });
    });
    return events.length;
  }
}

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
