import {
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
  type RateLimiterAbstract,
} from 'rate-limiter-flexible';

/** One request counted against a key's limit, and what the client is told about it. */
export interface RateDecision {
  allowed: boolean;
  /** Requests per window: the burst a key may send at once. */
  limit: number;
  /** Requests left in the current window, this one counted. */
  remaining: number;
  /** Milliseconds until the current window ends. */
  resetMs: number;
}

export interface KeyRateLimiterOptions {
  /** Requests a key may make per second, sustained (`RATE_LIMIT_RPS`); it may burst to twice that. */
  rps: number;
  /**
   * An ioredis client: the count lives in Redis, so every process and instance that shares
   * it shares one limit per key. Without one, each process counts alone.
   */
  redis?: unknown;
  /** Redis key prefix of the counters. */
  keyPrefix?: string;
  /** Called once when the Redis count fails and once when it works again. */
  onStoreChange?: (available: boolean, error?: unknown) => void;
}

/** The length of a window: a key may send two seconds' worth of requests at once. */
export const RATE_WINDOW_SECONDS = 2;

/**
 * Fixed two-second windows of `2 × rps` requests per key, counted by rate-limiter-flexible
 * (decision 0111): `rps` a second sustained, a burst of twice that at once. Counted in Redis
 * with `redis` (one atomic increment a request), else in this process's memory. When Redis
 * cannot answer, the key is counted in memory instead until it can (per process, as without
 * Redis): the API stays up and still bounded.
 */
export class KeyRateLimiter {
  /** Requests per window (`2 × rps`). */
  readonly limit: number;
  readonly rps: number;
  private readonly memory: RateLimiterMemory;
  private readonly shared: RateLimiterRedis | null;
  private storeDown = false;

  constructor(private readonly options: KeyRateLimiterOptions) {
    this.rps = options.rps;
    this.limit = RATE_WINDOW_SECONDS * options.rps;
    const window = {
      points: this.limit,
      duration: RATE_WINDOW_SECONDS,
      keyPrefix: options.keyPrefix ?? 'pis:rl',
    };
    this.memory = new RateLimiterMemory(window);
    this.shared =
      options.redis === undefined || options.redis === null
        ? null
        : new RateLimiterRedis({ ...window, storeClient: options.redis, rejectIfRedisNotReady: true });
  }

  async take(key: string): Promise<RateDecision> {
    if (this.shared !== null) {
      const counted = await this.count(this.shared, key).catch((error: unknown) => {
        this.storeChanged(false, error);
        return null;
      });
      if (counted !== null) {
        this.storeChanged(true);
        return counted;
      }
    }
    return this.count(this.memory, key);
  }

  /** A refusal comes back as a rejected RateLimiterRes; any other rejection is the store failing. */
  private async count(limiter: RateLimiterAbstract, key: string): Promise<RateDecision> {
    try {
      return this.decision(true, await limiter.consume(key));
    } catch (outcome) {
      if (outcome instanceof RateLimiterRes) return this.decision(false, outcome);
      throw outcome;
    }
  }

  private decision(allowed: boolean, res: RateLimiterRes): RateDecision {
    return {
      allowed,
      limit: this.limit,
      remaining: Math.max(0, res.remainingPoints),
      resetMs: Math.max(0, res.msBeforeNext),
    };
  }

  private storeChanged(available: boolean, error?: unknown): void {
    if (this.storeDown === !available) return;
    this.storeDown = !available;
    this.options.onStoreChange?.(available, error);
  }
}
