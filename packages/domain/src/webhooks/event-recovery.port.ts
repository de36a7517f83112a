import type { Instant } from '../kernel/instant';
import type { WebhookEndpoint } from './webhook-endpoint';

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
