import { Container } from 'inversify';
import {
  createPersistence,
  openDatabase,
  runMigrations,
  type Database,
  type Persistence,
} from '@pis/persistence';
import {
  databaseModeCipher,
  ServiceMetrics,
  SystemClock,
  traceExportErrorSource,
  type Config,
  type Logger,
} from '@pis/runtime';
import {
  deliverySettingsFrom,
  idempotencyRetentionLoop,
  type IdempotencyRetentionLoop,
  QueuedDelivery,
  redisErrorCounts,
  RetentionLoop,
  type Resolver,
} from '@pis/webhooks';
import { TOKENS } from './tokens';
import type { WorkerSettings } from './worker-settings';

export interface WorkerOverrides {
  /** DNS for webhook URLs (tests resolve names without a network). */
  resolver?: Resolver;
  /** The clock of the retention loops (tests move it; default the system clock). */
  clock?: ConstructorParameters<typeof RetentionLoop>[0]['clock'];
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

  c.bind<Database>(TOKENS.Database).toResolvedValue(async () => {
    // Attempts in flight each hold a connection only while they claim or record.
    const db = await openDatabase(
      {
        databaseUrl: settings.databaseUrl,
        directUrl: config.databaseDirectUrl,
        preparedStatements: config.databasePreparedStatements,
        poolSize: Math.min(50, Math.max(10, Math.ceil(settings.concurrency / 2))),
        applicationName: 'pis-worker',
      },
      {
        onListenerLost: (err) =>
          logger.warn({ err }, 'the database listening connection was lost; reconnecting'),
      },
    );
    const applied = await runMigrations(db);
    if (applied.length > 0) logger.info({ migrations: applied }, 'migrations applied');
    return db;
  });

  c.bind<Persistence>(TOKENS.Persistence).toResolvedValue(
    (db: Database) => createPersistence(db, { cipher: databaseModeCipher(config) }),
    [TOKENS.Database],
  );

  c.bind<ServiceMetrics>(TOKENS.Metrics).toResolvedValue(
    (db: Database, persistence: Persistence) =>
      new ServiceMetrics({
        token: config.metricsToken,
        sources: {
          backlog: persistence.backlog,
          pools: () => db.poolUsage(),
          redisErrors: redisErrorCounts,
          traceExportErrors: traceExportErrorSource(),
        },
        logger,
      }),
    [TOKENS.Database, TOKENS.Persistence],
  );

  c.bind<QueuedDelivery>(TOKENS.Delivery).toResolvedValue(
    (persistence: Persistence, metrics: ServiceMetrics) => {
      const delivery = new QueuedDelivery({
        store: persistence.pipeline,
        endpoints: persistence.queries.webhooks,
        logger,
        resolver: overrides.resolver,
        redis: settings.redis,
        prefix: settings.queuePrefix,
        concurrency: settings.concurrency,
        settings: deliverySettingsFrom(config),
        observer: metrics.attemptObserver,
      });
      metrics.watchSlots(() => delivery.slotUsage());
      return delivery;
    },
    [TOKENS.Persistence, TOKENS.Metrics],
  );

  c.bind<RetentionLoop>(TOKENS.Retention).toResolvedValue(
    (persistence: Persistence) =>
      new RetentionLoop({
        retention: persistence.retention,
        clock: overrides.clock ?? new SystemClock(),
        retentionDays: config.eventRetentionDays,
        logger,
      }),
    [TOKENS.Persistence],
  );

  c.bind<IdempotencyRetentionLoop>(TOKENS.KeyRetention).toResolvedValue(
    (persistence: Persistence) =>
      idempotencyRetentionLoop({
        store: persistence.idempotency,
        clock: overrides.clock ?? new SystemClock(),
        logger,
      }),
    [TOKENS.Persistence],
  );
  return c;
}
