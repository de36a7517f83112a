import type { EventType, StoredEvent } from '../../events/domain-event';
import type { RecoverFrom } from '../../events/event-feed.port';
import { tableStateOf, type TableStateSnapshot } from '../../events/table-state';
import { fail, ok, type Failure } from '../../kernel/outcome';
import type { UseCase } from '../use-case.types';

export interface EventFeedPage {
  events: StoredEvent[];
  /** The last returned sequence, or `after` when none was. */
  nextAfter: number;
  hasMore: boolean;
  oldestRetainedSequence: number;
}

export type ReadEventFeed = UseCase<
  { locationId: string; after: number; limit: number; types: EventType[] | null },
  EventFeedPage
>;
export type ReadTableState = UseCase<{ locationId: string }, TableStateSnapshot>;
export type RecoverWebhooks = UseCase<{ locationId: string; from: RecoverFrom }, { queued: number }>;

const expired = (what: string): Failure =>
  fail(
    'events_expired',
    `${what} has been pruned by retention: rebuild from GET /tables/state, then read the feed from its asOfSequence`,
  );

/**
 * The location's events strictly after `after`, ascending. A position whose next event has
 * been pruned is `events_expired`: reading on would skip events.
 */
export const readEventFeed: ReadEventFeed = async (deps, { locationId, after, limit, types }) => {
  const page = await deps.queries.events.page({ locationId, after, limit: limit + 1, types });
  if (after < page.oldestRetainedSequence - 1) {
    return expired(
      `the event after sequence ${after} (the oldest retained is ${page.oldestRetainedSequence})`,
    );
  }
  const events = page.events.slice(0, limit);
  return ok({
    events,
    nextAfter: events.length === 0 ? after : events[events.length - 1]!.sequence,
    hasMore: page.events.length > limit,
    oldestRetainedSequence: page.oldestRetainedSequence,
  });
};

/** Every published table with its open order, read in one snapshot with the sequence it reflects. */
export const readTableState: ReadTableState = async (deps, { locationId }) => {
  const read = await deps.queries.events.tableState(locationId);
  const plan = read.plan;
  if (plan === null) return fail('floorplan_not_published', 'the floor plan has not been published yet');
  return ok(tableStateOf({ ...read, plan }));
};

/**
 * Queues every retained event after `from` that the endpoint subscribes to again, as new
 * deliveries with the events' original ids, in sequence order; events raised before the
 * endpoint existed included.
 */
export const recoverWebhooks: RecoverWebhooks = async (deps, { locationId, from }) =>
  deps.uow.run(async (tx) => {
    const endpoint = await tx.webhookEndpoints.lock(locationId);
    if (endpoint === null) return fail('not_found', 'no webhook endpoint is registered; PUT one first');
    if (endpoint.disabledAt !== null) {
      return fail(
        'validation_failed',
        `the webhook endpoint is disabled (${endpoint.disabledReason ?? 'by the service'}); PUT it to enable it, then recover`,
      );
    }
    const requeued = await tx.eventRecovery.requeue(endpoint, from);
    if (requeued === 'expired') {
      return expired(
        'afterSequence' in from
          ? `the event after sequence ${from.afterSequence}`
          : `an event since ${from.since.toIso()}`,
      );
    }
    return ok(requeued);
  });
