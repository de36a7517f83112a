import {
  withinSpans,
  type Clock,
  type DeliverableEvent,
  type EventFeedQueries,
  type EventRecoveryRepository,
  type FeedPage,
  type FeedQuery,
  type IdGenerator,
  type Instant,
  type RecoverFrom,
  type WebhookEndpoint,
} from '../../src';
import { detach } from './detach';
import { lastSequence, scoped, type Draft, type Reader, type State } from './state';

const oldestRetained = (read: Reader, locationId: string): number =>
  (read.map('prunedThrough').get(locationId)?.sequence ?? 0) + 1;

/** The feed over the committed state (always one consistent snapshot). */
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
