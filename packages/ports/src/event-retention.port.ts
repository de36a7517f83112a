import type { Instant } from '@pis/domain';

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
