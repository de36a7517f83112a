import { KeyRateLimiter } from '@pis/http';
import type { Config, Logger } from '@pis/runtime';
import { createRedis, type RedisClient } from '@pis/webhooks';

export interface RateLimitSetup {
  /** null when `RATE_LIMIT_RPS` is 0. */
  limiter: KeyRateLimiter | null;
  close(): Promise<void>;
}

/** How long a start waits for Redis before it counts in memory (and keeps trying). */
const READY_WAIT_MS = 2_000;

/**
 * The per-key rate limit (decision 0111): counted in Redis when `REDIS_URL` (or `REDIS_CLUSTER_NODES`) is set, so every
 * API process and instance shares one limit per key; in this process otherwise. A Redis that
 * is down or slow (over 250 ms) never fails or holds a request: it is counted in this
 * process meanwhile, with one log line when that starts and one when it ends.
 */
export async function rateLimitSetup(config: Config, logger: Logger): Promise<RateLimitSetup> {
  if (config.rateLimitRps === 0) return { limiter: null, close: async () => undefined };
  if (config.redis === null) {
    return { limiter: new KeyRateLimiter({ rps: config.rateLimitRps }), close: async () => undefined };
  }
  // Each key's counter is one key, counted by a one-key script: on a cluster the counters
  // spread over every slot, and no command spans two (decision 0190).
  const redis = createRedis(
    config.redis,
    {
      connectionName: 'pis-api-rate-limit',
      enableOfflineQueue: false,
      commandTimeout: 250,
      maxRetriesPerRequest: 1,
      retryStrategy: (attempt) => Math.min(attempt * 200, 2_000),
    },
    'rate-limit',
  );
  // Reconnection errors repeat while Redis is down; the limiter logs the outage once.
  redis.on('error', (err) => logger.debug({ err }, 'rate limit Redis connection error'));
  await waitUntilReady(redis);
  const limiter = new KeyRateLimiter({
    rps: config.rateLimitRps,
    redis,
    keyPrefix: config.rateLimitPrefix,
    onStoreChange: (available, err) =>
      available
        ? logger.info('rate limit: Redis answers again; one limit per key across every API process')
        : logger.warn(
            { err },
            'rate limit: Redis is unavailable; counting each key per API process until it is back',
          ),
  });
  return { limiter, close: async () => redis.disconnect() };
}

function waitUntilReady(redis: RedisClient): Promise<void> {
  if (redis.status === 'ready') return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      redis.off('ready', done);
      resolve();
    };
    const timer = setTimeout(done, READY_WAIT_MS);
    redis.once('ready', done);
  });
}
