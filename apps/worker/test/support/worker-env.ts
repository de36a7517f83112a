import type { Harness } from '@pis/webhooks/test-support';

export const SHARED_REDIS_URL = process.env['PIS_TEST_REDIS_URL'] ?? 'redis://127.0.0.1:6379';
export const BACKOFFICE_TOKEN = 'worker-test-backoffice-token-0123456789';

/**
 * The environment of a worker process on the harness's database: loopback receivers over
 * http allowed, a short retry schedule and timeout, the test's own queue prefix.
 */
export function workerEnv(h: Harness, redisUrl: string, queuePrefix: string): Record<string, string> {
  return {
    DATABASE_URL: h.db.url,
    REDIS_URL: redisUrl,
    BACKOFFICE_TOKEN,
    SECRETS_KEY: h.secretsKey,
    WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
    WEBHOOK_ALLOW_INSECURE_URLS: 'true',
    WEBHOOK_RETRY_DELAYS_MS: '100,200,400,800,1600,3200',
    WEBHOOK_TIMEOUT_MS: '1000',
    WEBHOOK_QUEUE_PREFIX: queuePrefix,
    WEBHOOK_WORKER_CONCURRENCY: '32',
    LOG_LEVEL: 'info',
  };
}

/** The `locationEventSequence` of every distinct delivery a receiver got. */
export function sequencesOf(requests: { body: string }[]): Set<number> {
  return new Set(
    requests.map(
      (r) => (JSON.parse(r.body) as { data: { locationEventSequence: number } }).data.locationEventSequence,
    ),
  );
}

export const oneTo = (n: number) => new Set(Array.from({ length: n }, (_, i) => i + 1));

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
