import type { PublishedFloorPlan } from '../floorplan/floor-plan';
import type { Order } from '../orders/order';
import type { Instant } from '../kernel/instant';
import type { WebhookEndpoint } from '../webhooks/webhook-endpoint';
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

/** The state a provider rebuilds from: read in one snapshot with the sequence it reflects. */
export interface TableStateRead {
  /** The location's last committed sequence at the snapshot (0 before any event). */
  asOfSequence: number;
  plan: PublishedFloorPlan | null;
  /** Every open order of the location at the snapshot. */
  openOrders: Order[];
}

/**
 * The event feed's read side, outside any transaction. A location's sequences are handed out
 * one transaction at a time in commit order (see `Outbox`), so a page read after `after`
 * never skips a sequence that commits later.
 */
export interface EventFeedQueries {
  page(query: FeedQuery): Promise<FeedPage>;
  tableState(locationId: string): Promise<TableStateRead>;
}

/** Where a recover starts: strictly after a sequence, or strictly after an instant. */
export type RecoverFrom = { afterSequence: number } | { since: Instant };

/** Used inside a unit of work. */
export interface EventRecoveryRepository {
  /**
   * Adds a new pending delivery to `endpoint` for every retained event of its location after
   * `from` whose type it subscribes to, in sequence order, each carrying its event's id;
   * `expired` when events after `from` have been pruned.
   */
  requeue(endpoint: WebhookEndpoint, from: RecoverFrom): Promise<{ queued: number } | 'expired'>;
}

/** Retention of the outbox: events with their deliveries and attempts go once old enough. */
export interface EventRetention {
  /**
   * Deletes at most `batchSize` of the oldest events that joined the outbox before `olderThan`
   * (on the store's clock), with their deliveries and attempts, and remembers per location the
   * last sequence pruned. A location's events go in sequence order, so its feed never has a
   * hole. Answers how many events went.
   */
  prune(olderThan: Instant, batchSize: number): Promise<number>;
}
