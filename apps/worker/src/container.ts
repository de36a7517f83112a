import { Container } from 'inversify';
import type { DataSource } from 'typeorm';
import { createDataSource, createPersistence, runMigrations, type Persistence } from '@pis/persistence';
import { databaseModeCipher, RandomIdGenerator, type Config, type Logger } from '@pis/runtime';
import { QueuedDelivery, type Resolver } from '@pis/webhooks';
import { TOKENS } from './tokens';
import type { WorkerSettings } from './worker-settings';

export interface WorkerOverrides {
  /** DNS for webhook URLs (tests resolve names without a network). */
  resolver?: Resolver;
}

/**
 * The worker's composition root: factory bindings only (no decorators), every service a
 * singleton of this container.
 */
export function buildWorkerContainer(
  config: Config,
  settings: WorkerSettings,
  logger: Logger,
  overrides: WorkerOverrides = {},
): Container {
  const c = new Container({ defaultScope: 'Singleton' });
  c.bind<Config>(TOKENS.Config).toConstantValue(config);
  c.bind<WorkerSettings>(TOKENS.Settings).toConstantValue(settings);
  c.bind<Logger>(TOKENS.Logger).toConstantValue(logger);

  c.bind<DataSource>(TOKENS.DataSource).toDynamicValue(async () => {
    // Attempts in flight each hold a connection only while they read or record.
    const db = await createDataSource({
      databaseUrl: settings.databaseUrl,
      poolSize: Math.min(50, Math.max(10, Math.ceil(settings.concurrency / 2))),
      applicationName: 'pis-worker',
    });
    const applied = await runMigrations(db);
    if (applied.length > 0) logger.info({ migrations: applied }, 'migrations applied');
    return db;
  });

  c.bind<Persistence>(TOKENS.Persistence).toDynamicValue(async (ctx) =>
    createPersistence(await ctx.getAsync<DataSource>(TOKENS.DataSource), {
      cipher: databaseModeCipher(config),
    }),
  );

  c.bind<QueuedDelivery>(TOKENS.Delivery).toDynamicValue(async (ctx) => {
    const db = await ctx.getAsync<DataSource>(TOKENS.DataSource);
    const persistence = await ctx.getAsync<Persistence>(TOKENS.Persistence);
    const ids = new RandomIdGenerator();
    return new QueuedDelivery({
      db,
      endpoints: persistence.queries.webhooks,
      logger,
      resolver: overrides.resolver,
      redisUrl: settings.redisUrl,
      prefix: settings.queuePrefix,
      concurrency: settings.concurrency,
      databaseUrl: settings.databaseUrl,
      newId: () => ids.uuid(),
      settings: {
        retryDelaysMs: config.webhookRetryDelaysMs,
        timeoutMs: config.webhookTimeoutMs,
        allowPrivateUrls: config.webhookAllowPrivateUrls,
        allowInsecureUrls: config.webhookAllowInsecureUrls,
      },
    });
  });
  return c;
}
