import type { Clock, IdempotencyStore } from '@pis/domain';
import type { Logger } from 'pino';
import { WakeableLoop } from '../support/wakeable-loop';

export interface IdempotencyRetentionLoopOptions {
  store: IdempotencyStore;
  /** The service clock: a key goes once its 24 hours have ended on it. */
  clock: Clock;
  logger: Logger;
  /** Keys per statement (default 1,000). */
  batchSize?: number;
  /** Pause once nothing is left to prune (default one minute). */
  everyMs?: number;
}

/**
 * Prunes `Idempotency-Key` records whose 24 hours have ended, with the answers they kept,
 * one bounded batch per statement, batch after batch while a batch comes back full, then
 * once a minute. Runs beside the event retention loop (the worker, or the API without
 * `REDIS_URL`); several processes may run it at once, each batch skipping rows another holds.
 */
export class IdempotencyRetentionLoop {
  private readonly loop: WakeableLoop;
  private readonly batchSize: number;
  private pruned = 0;

  constructor(private readonly options: IdempotencyRetentionLoopOptions) {
    this.batchSize = options.batchSize ?? 1_000;
    this.loop = new WakeableLoop(() => this.round(), {
      idleMs: options.everyMs ?? 60_000,
      errorBackoffMs: 5_000,
      logger: options.logger,
      name: 'idempotency-retention',
    });
  }

  start(): void {
    this.loop.start();
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }

  /** One batch; true while there may be more. */
  async round(): Promise<boolean> {
    const pruned = await this.options.store.prune(this.options.clock.now(), this.batchSize);
    this.pruned += pruned;
    const more = pruned === this.batchSize;
    if (!more && this.pruned > 0) {
      this.options.logger.info({ pruned: this.pruned }, 'idempotency keys past their 24 hours pruned');
      this.pruned = 0;
    }
    return more;
  }
}
