import type { Instant } from '../kernel/instant';
import type { IdempotencyClaim, IdempotentRequest, IdempotentStart, KeptAnswer } from './idempotent-request';

/**
 * Where the keys of `Idempotency-Key` requests and their answers are kept. Every call is
 * atomic on its own, across every process sharing the store; `decideIdempotentStart` is the
 * rule `begin` applies. `now` is the service clock's.
 */
export interface IdempotencyStore {
  /**
   * Starts `request`: claims its key for `token` (holding it until `now` plus the lease, and
   * keeping it 24 hours from `now`), or answers what the key holds. Of concurrent starts of
   * one key, exactly one is `claimed`.
   */
  begin(request: IdempotentRequest, token: string, now: Instant): Promise<IdempotentStart>;
  /** Holds a running claim for another lease from `now`; false when the key is no longer its. */
  renew(claim: IdempotencyClaim, now: Instant): Promise<boolean>;
  /** Keeps the claim's answer for the rest of the key's 24 hours; false when the key is no longer its. */
  complete(claim: IdempotencyClaim, answer: KeptAnswer): Promise<boolean>;
  /** Frees a running claim's key at once, keeping nothing (its request has no answer to keep). */
  release(claim: IdempotencyClaim): Promise<void>;
  /** Deletes at most `batchSize` keys whose 24 hours ended by `now`, oldest first; answers how many. */
  prune(now: Instant, batchSize: number): Promise<number>;
}
