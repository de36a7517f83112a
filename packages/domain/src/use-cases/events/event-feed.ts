import { ownProviderId } from '../../access/provider';
import { eventVisibleTo, providerReader } from '../../access/visibility';
import type { EventType, StoredEvent } from '../../events/domain-event';
import { fail, ok, type Failure } from '../../kernel/outcome';
import type { UseCase } from '../use-case.types';

export interface EventFeedPage {
  events: StoredEvent[];
  /** The last returned sequence, or `after` when none was. */
  nextAfter: number;
  hasMore: boolean;
  oldestRetainedSequence: number;
}

/** `providerId`: the reader (left out: the location's own provider). */
export type ReadEventFeed = UseCase<
  { locationId: string; providerId?: string; after: number; limit: number; types: EventType[] | null },
  EventFeedPage
>;

/** A read or recover from a position retention has pruned: the provider rebuilds first. */
export const eventsExpired = (what: string): Failure =>
  fail(
    'events_expired',
    `${what} has been pruned by retention: rebuild from GET /tables/state, then read the feed from its asOfSequence`,
  );

/**
 * The location's events strictly after `after`, ascending, as the provider may see them: only
 * those committed while it was connected (the others are left out as if filtered by type),
 * each with another provider's reservation id hidden (`eventVisibleTo`). A position whose next
 * event has been pruned is `events_expired`: reading on would skip events.
 */
export const readEventFeed: ReadEventFeed = async (deps, command) => {
  const { locationId, after, limit, types } = command;
  const providerId = command.providerId ?? ownProviderId(locationId);
  // The location's own provider is connected from its first event and never revoked.
  const connected = providerId === ownProviderId(locationId) ? {} : { providerId };
  const page = await deps.queries.events.page({ locationId, ...connected, after, limit: limit + 1, types });
  if (after < page.oldestRetainedSequence - 1) {
    return eventsExpired(
      `the event after sequence ${after} (the oldest retained is ${page.oldestRetainedSequence})`,
    );
  }
  const reader = providerReader(providerId);
  const events = page.events.slice(0, limit).map((event) => eventVisibleTo(reader, event));
  return ok({
    events,
    nextAfter: events.length === 0 ? after : events[events.length - 1]!.sequence,
    hasMore: page.events.length > limit,
    oldestRetainedSequence: page.oldestRetainedSequence,
  });
};
