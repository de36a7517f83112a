import type { DataSource } from 'typeorm';
import type { Config, Logger } from '@pis/runtime';
import type { QueuedDelivery } from '@pis/webhooks';
import { buildWorkerContainer, type WorkerOverrides } from './container';
import { TOKENS } from './tokens';
import type { WorkerSettings } from './worker-settings';

export interface WorkerRuntime {
  delivery: QueuedDelivery;
  db: DataSource;
  /** Starts the outbox relay, the enqueuer and the BullMQ worker. */
  start(): Promise<void>;
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
  const db = await container.getAsync<DataSource>(TOKENS.DataSource);
  const delivery = await container.getAsync<QueuedDelivery>(TOKENS.Delivery);
  return {
    delivery,
    db,
    start: () => delivery.start(),
    async stop() {
      await delivery.stop();
      if (db.isInitialized) await db.destroy();
      await container.unbindAll();
    },
  };
}
