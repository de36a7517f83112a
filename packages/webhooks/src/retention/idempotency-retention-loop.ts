import type { Clock, IdempotencyStore } from '@pis/domain';
import type { Logger } from 'pino';
import { WakeableLoop } from '../support/wakeable-loop';

export interface IdempotencyRetentionOptions {
  store: IdempotencyStore;
  /** The service clock: a key goes once its 24 hours have ended on it. */
  clock: Clock;
  logger: Logger;
  /** Keys per statement (default 1,000). */
  batchSize?: number;
  /** Pause once nothing is left to prune (default one minute). */
  everyMs?: number;
}

/** What the composition roots start and stop. */
export type IdempotencyRetentionLoop = Pick<WakeableLoop, 'start' | 'stop'>;

/**
 * Prunes `Idempotency-Key` records whose 24 hours have ended, with the answers they kept,
 * one bounded batch per statement, batch after batch while a batch comes back full, then
 * once a minute. Runs beside the event retention loop (the worker, or the API without
 * `REDIS_URL`); several processes may run it at once, each batch skipping rows another holds.
 */
export function idempotencyRetentionLoop(options: IdempotencyRetentionOptions): IdempotencyRetentionLoop {
  const batchSize = options.batchSize ?? 1_000;
  let pruned = 0;
  const round = async (): Promise<boolean> => {
    const batch = await options.store.prune(options.clock.now(), batchSize);
    pruned += batch;
    if (batch === batchSize) return true;
    if (pruned > 0) options.logger.info({ pruned }, 'idempotency keys past their 24 hours pruned');
    pruned = 0;
    return false;
  };
  return new WakeableLoop(round, {
    idleMs: options.everyMs ?? 60_000,
    errorBackoffMs: 5_000,
    logger: options.logger,
    name: 'idempotency-retention',
  });
}
