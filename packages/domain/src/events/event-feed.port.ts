import type { EventType, StoredEvent } from './domain-event';

export interface FeedQuery {
  locationId: string;
  /**
   * Only the events committed while this provider was connected to the location (its
   * connection's spans, see `ConnectedSpan`); left out: every event.
   */
  providerId?: string;
  /** Strictly after this sequence (0: from the first). */
  after: number;
  limit: number;
  /** Only these types; every type when null. */
  types: readonly EventType[] | null;
}

export interface FeedPage {
  /** Ascending sequence, at most `limit`. */
  events: StoredEvent[];
  /** The smallest sequence retention still holds: one past the last pruned (1 when none was). */
  oldestRetainedSequence: number;
}

/**
 * The event feed's read side, outside any transaction. A location's sequences are handed out
 * one transaction at a time in commit order (see `Outbox`), so a page read after `after`
 * never skips a sequence that commits later.
 */
export interface EventFeedQueries {
  page(query: FeedQuery): Promise<FeedPage>;
}
