import type { Database } from '@pis/persistence';
import { webhookUrlRules, type Config, type Logger, type ServiceMetrics } from '@pis/runtime';
import type { IdempotencyRetentionLoop, QueuedDelivery, RetentionLoop } from '@pis/webhooks';
import { buildWorkerContainer, type WorkerOverrides } from './container';
import { startMetricsServer, type MetricsServer } from './metrics-server';
import { TOKENS } from './tokens';
import type { WorkerSettings } from './worker-settings';

export interface WorkerRuntime {
  delivery: QueuedDelivery;
  db: Database;
  metrics: ServiceMetrics;
  /** Starts the metrics listener, the outbox relay, the enqueuer and the BullMQ worker; answers the metrics port. */
  start(): Promise<{ metricsPort: number }>;
  /** Stops taking work, lets attempts in flight finish (up to a deadline), closes Redis and PostgreSQL. */
  stop(): Promise<void>;
}

/** Resolves the worker from configuration: migrations applied, nothing running yet. */
export async function createWorkerRuntime(
  config: Config,
  settings: WorkerSettings,
  logger: Logger,
  overrides: WorkerOverrides = {},
): Promise<WorkerRuntime> {
  const container = buildWorkerContainer(config, settings, logger, overrides);
  const db = await container.getAsync<Database>(TOKENS.Database);
  const delivery = await container.getAsync<QueuedDelivery>(TOKENS.Delivery);
  const metrics = await container.getAsync<ServiceMetrics>(TOKENS.Metrics);
  const retention = await container.getAsync<RetentionLoop>(TOKENS.Retention);
  const keyRetention = await container.getAsync<IdempotencyRetentionLoop>(TOKENS.KeyRetention);
  let server: MetricsServer | null = null;
  const ready = async () => {
    await db.query('SELECT 1');
    return true;
  };
  return {
    delivery,
    db,
    metrics,
    async start() {
      const health = { status: 'ok', ...webhookUrlRules(config) };
      server = await startMetricsServer(metrics, ready, health, settings.metricsPort, logger);
      await delivery.start();
      retention.start();
      keyRetention.start();
      return { metricsPort: server.port };
    },
    async stop() {
      await keyRetention.stop();
      await retention.stop();
      await delivery.stop();
      await server?.close();
      await db.close();
      await container.unbindAll();
    },
  };
}
