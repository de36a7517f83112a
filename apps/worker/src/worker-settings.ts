import { ConfigError, type Config, type RedisTarget } from '@pis/runtime';

/** What only the worker deployment reads, beside the shared configuration. */
export interface WorkerSettings {
  databaseUrl: string;
  /** `REDIS_URL`, or the Redis Cluster of `REDIS_CLUSTER_NODES`. */
  redis: RedisTarget;
  /**
   * `WEBHOOK_QUEUE_PREFIX` (default `pis`): the Redis key prefix of the delivery queue; on a
   * Redis Cluster it is used as a hash tag, `{pis}`, so the queue's keys share one slot.
   */
  queuePrefix: string;
  /** `WEBHOOK_WORKER_CONCURRENCY` (default 64, decision 0140): attempts in flight in this process. */
  concurrency: number;
  /** `WORKER_METRICS_PORT` (default 9464; 0: any free port, logged at start): `/metrics`, `/healthz`, `/readyz`. */
  metricsPort: number;
}

/** Reads the worker's own variables and requires what the shared configuration leaves optional. */
export function loadWorkerSettings(config: Config, env: NodeJS.ProcessEnv): WorkerSettings {
  const problems: string[] = [];
  if (config.databaseUrl === null) {
    problems.push(
      'DATABASE_URL is required: the worker reads the outbox and records deliveries in PostgreSQL',
    );
  }
  if (config.redis === null) {
    problems.push(
      'REDIS_URL is required (or REDIS_CLUSTER_NODES for a Redis Cluster): the worker takes deliveries from the BullMQ queue (without Redis, the API delivers webhooks itself)',
    );
  }
  const queuePrefix = env['WEBHOOK_QUEUE_PREFIX']?.trim() || 'pis';
  if (!/^[A-Za-z0-9_.-]{1,64}$/.test(queuePrefix)) {
    problems.push('WEBHOOK_QUEUE_PREFIX must be 1-64 letters, digits, dots, dashes or underscores');
  }
  const concurrencyText = env['WEBHOOK_WORKER_CONCURRENCY']?.trim() || '64';
  const concurrency = Number(concurrencyText);
  if (!/^\d+$/.test(concurrencyText) || concurrency < 1 || concurrency > 1000) {
    problems.push(`WEBHOOK_WORKER_CONCURRENCY must be an integer from 1 to 1000 (got "${concurrencyText}")`);
  }
  const metricsPortText = env['WORKER_METRICS_PORT']?.trim() || '9464';
  const metricsPort = Number(metricsPortText);
  if (!/^\d+$/.test(metricsPortText) || metricsPort > 65535) {
    problems.push(`WORKER_METRICS_PORT must be an integer from 0 to 65535 (got "${metricsPortText}")`);
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return {
    databaseUrl: config.databaseUrl!,
    redis: config.redis!,
    queuePrefix,
    concurrency,
    metricsPort,
  };
}
