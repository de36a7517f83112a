import type { Clock } from '@pis/domain';
import type { EventRetention } from '@pis/ports';
import type { Logger } from 'pino';
import { WakeableLoop } from '../support/wakeable-loop';

export interface RetentionLoopOptions {
  retention: EventRetention;
  clock: Clock;
  /** `EVENT_RETENTION_DAYS`: events older than this go, with their deliveries and attempts. */
  retentionDays: number;
  logger: Logger;
  /** Events per transaction (default 1,000): each batch is short, so writes go on beside it. */
  batchSize?: number;
  /** Pause once nothing is left to prune (default one minute). */
  everyMs?: number;
}

const DAY_MICROS = 86_400_000_000n;

/**
 * Retention: prunes events older than the retention with their deliveries and attempts, one
 * bounded batch per transaction, batch after batch while a batch comes back full, then once
 * a minute. Runs in the worker, or in the API without `REDIS_URL`; two processes share the
 * work safely (one prune at a time, the other skips its round).
 */
export class RetentionLoop {
  private readonly loop: WakeableLoop;
  private readonly batchSize: number;
  private pruned = 0;

  constructor(private readonly options: RetentionLoopOptions) {
    this.batchSize = options.batchSize ?? 1_000;
    this.loop = new WakeableLoop(() => this.round(), {
      idleMs: options.everyMs ?? 60_000,
      errorBackoffMs: 5_000,
      logger: options.logger,
      name: 'event-retention',
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
    const cutoff = this.options.clock.now().plusMicros(-BigInt(this.options.retentionDays) * DAY_MICROS);
    const pruned = await this.options.retention.prune(cutoff, this.batchSize);
    this.pruned += pruned;
    const more = pruned === this.batchSize;
    if (!more && this.pruned > 0) {
      this.options.logger.info(
        { pruned: this.pruned, retentionDays: this.options.retentionDays },
        'events past retention pruned with their deliveries',
      );
      this.pruned = 0;
    }
    return more;
  }
}
