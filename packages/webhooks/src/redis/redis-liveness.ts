import type { Logger } from 'pino';
import { settlesWithin } from '../support/settles-within';
import type { RedisClient } from './redis-client';

export interface RedisLivenessOptions {
  /** A key of the slot the client works on (on a cluster the probe goes to that slot's master). */
  key: string;
  /** Time between probes. */
  intervalMs?: number;
  /** A probe unanswered for this long means the connection is stuck. */
  timeoutMs?: number;
  logger: Logger;
  /** The client's name in the log (as in `pis_redis_errors_total`). */
  client: string;
}

/**
 * Resets a Redis client whose connection stopped answering while it says it is ready
 * (decision 0191). After a Redis Cluster failover a node connection can stay open with its
 * commands unanswered, for good: every later command to that slot waits behind them, and
 * the client, which sees no error, never reconnects. A small read of a key in the slot, sent
 * every `intervalMs`, waits behind them too; when it has no answer within `timeoutMs` the
 * client is disconnected and connects again (its pending commands fail, and their callers
 * retry as they do after any Redis error). On a single Redis the same probe catches a
 * connection whose server went away without closing it.
 */
export class RedisLiveness {
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;
  private probing = false;
  private readonly intervalMs: number;
  private readonly timeoutMs: number;
  private resets = 0;

  constructor(
    private readonly redis: RedisClient,
    private readonly options: RedisLivenessOptions,
  ) {
    this.intervalMs = options.intervalMs ?? 2_000;
    this.timeoutMs = options.timeoutMs ?? 5_000;
  }

  /** How many times the client was reset so far. */
  get resetCount(): number {
    return this.resets;
  }

  start(): void {
    this.stopped = false;
    if (this.timer) return;
    this.timer = setInterval(() => void this.probe(), this.intervalMs);
    this.timer.unref();
  }

  /** No probe resets the client after this (it may be closing). */
  stop(): void {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** One probe; answers whether the client was reset. */
  async probe(): Promise<boolean> {
    // A client that is (re)connecting is the client's own business; one probe at a time.
    if (this.probing || this.redis.status !== 'ready') return false;
    this.probing = true;
    try {
      let answered = false;
      const probe = this.redis.exists(this.options.key).finally(() => (answered = true));
      await settlesWithin(probe, this.timeoutMs);
      // Timers run before the event loop reads its sockets: after the process was held up for
      // longer than the timeout (a busy machine), the answer may be there, unread. One turn of
      // the loop for I/O before calling the connection stuck.
      if (!answered) await new Promise((resolve) => setImmediate(resolve));
      if (answered || this.stopped || this.redis.status !== 'ready') return false;
      this.resets++;
      this.options.logger.warn(
        { client: this.options.client, unansweredMs: this.timeoutMs },
        'a Redis connection stopped answering; reconnecting it',
      );
      this.redis.disconnect(true);
      return true;
    } finally {
      this.probing = false;
    }
  }
}
