import cluster from 'node:cluster';
import { Container } from 'inversify';
import type { Express } from 'express';
import type { AccessQueries, Clock, Deps, WebhookUrlPolicy } from '@pis/domain';
import { buildOpenApiDocument, createValidator, type ContractValidator } from '@pis/contract';
import { CachedAccessQueries, createHttpApp } from '@pis/http';
import {
  createPersistence,
  openDatabase,
  runMigrations,
  type Database,
  type Persistence,
} from '@pis/persistence';
import {
  CryptoSecretFactory,
  RandomIdGenerator,
  ServiceMetrics,
  Sha256KeyHasher,
  SystemClock,
  traceExportErrorSource,
  webhookUrlRules,
  type Config,
  type Logger,
} from '@pis/runtime';
import {
  deliverySettingsFrom,
  HttpWebhookSender,
  idempotencyRetentionLoop,
  type IdempotencyRetentionLoop,
  InProcessDelivery,
  redisErrorCounts,
  RetentionLoop,
  SignedTestSender,
  urlPolicyFor,
  type DnsWebhookUrlPolicy,
  type Resolver,
} from '@pis/webhooks';
import { KeyRevocations } from './key-revocations';
import { rateLimitSetup, type RateLimitSetup } from './rate-limit-setup';
import { replicaSettings } from './replica-setup';
import type { ResolvedSecrets } from './secrets-setup';
import { TOKENS } from './tokens';

export interface ApiOverrides {
  /** DNS for webhook URLs (tests resolve names without a network). */
  resolver?: Resolver;
  /** PostgreSQL pool size per pool (units of work, reads). */
  poolSize?: number;
  /** The service clock (tests move it; default the system clock). */
  clock?: Clock;
}

/**
 * The API's composition root: every adapter is built here and nowhere else, with factory
 * bindings (no decorators). Everything is a singleton of this container; `dispose` closes
 * what holds resources.
 */
export function buildApiContainer(
  config: Config,
  logger: Logger,
  secrets: ResolvedSecrets,
  overrides: ApiOverrides = {},
): Container {
  const c = new Container({ defaultScope: 'Singleton' });
  c.bind<Config>(TOKENS.Config).toConstantValue(config);
  c.bind<Logger>(TOKENS.Logger).toConstantValue(logger);

  c.bind<Database>(TOKENS.Database).toResolvedValue(async () => {
    const target =
      config.databaseUrl === null
        ? { dataDir: config.dataDir }
        : {
            databaseUrl: config.databaseUrl,
            directUrl: config.databaseDirectUrl,
            preparedStatements: config.databasePreparedStatements,
            poolSize: overrides.poolSize,
            applicationName: 'pis-api',
          };
    const db = await openDatabase(target, {
      onListenerLost: (err) =>
        logger.warn({ err }, 'the database listening connection was lost; reconnecting'),
      replica: replicaSettings(config, logger, overrides.poolSize),
    });
    const applied = await runMigrations(db);
    if (applied.length > 0) logger.info({ migrations: applied }, 'migrations applied');
    return db;
  });

  c.bind<ServiceMetrics>(TOKENS.Metrics).toResolvedValue(
    (db: Database, p: Persistence) =>
      new ServiceMetrics({
        token: config.metricsToken,
        sources: {
          backlog: p.backlog,
          pools: () => db.poolUsage(),
          replica: () => db.replicaStatus(),
          redisErrors: config.redis === null ? undefined : redisErrorCounts,
          traceExportErrors: traceExportErrorSource(),
        },
        logger,
        clustered: config.apiWorkers > 1 && cluster.isWorker,
      }),
    [TOKENS.Database, TOKENS.Persistence],
  );

  c.bind<Persistence>(TOKENS.Persistence).toResolvedValue(
    (db: Database) =>
      createPersistence(db, {
        cipher: secrets.cipher,
        onListenerError: (err) => logger.error({ err }, 'events-committed listener failed'),
      }),
    [TOKENS.Database],
  );

  c.bind<CachedAccessQueries>(TOKENS.AccessQueries).toResolvedValue(
    (p: Persistence) => new CachedAccessQueries(p.queries.access),
    [TOKENS.Persistence],
  );

  const deliverySettings = deliverySettingsFrom(config);
  c.bind<DnsWebhookUrlPolicy>(TOKENS.UrlPolicy).toConstantValue(
    urlPolicyFor(deliverySettings, overrides.resolver),
  );

  // POST /webhook-endpoint/test sends with the delivery sender's class, policy and timeout.
  c.bind<HttpWebhookSender>(TOKENS.TestSender).toResolvedValue(
    (policy: DnsWebhookUrlPolicy) => new HttpWebhookSender(policy, deliverySettings.timeoutMs),
    [TOKENS.UrlPolicy],
  );

  c.bind<Deps>(TOKENS.Deps).toResolvedValue(
    (
      p: Persistence,
      access: AccessQueries,
      urlPolicy: WebhookUrlPolicy,
      testSender: HttpWebhookSender,
    ): Deps => ({
      uow: p.uow,
      plainWrites: p.plainWrites,
      queries: { ...p.queries, access },
      clock: overrides.clock ?? new SystemClock(),
      ids: new RandomIdGenerator(),
      hasher: new Sha256KeyHasher(),
      secrets: new CryptoSecretFactory(),
      urlPolicy,
      webhookTests: new SignedTestSender(testSender),
    }),
    [TOKENS.Persistence, TOKENS.AccessQueries, TOKENS.UrlPolicy, TOKENS.TestSender],
  );

  c.bind<ContractValidator>(TOKENS.Validator).toResolvedValue(() => createValidator());
  c.bind<object>(TOKENS.OpenApiDocument).toResolvedValue(() => buildOpenApiDocument());

  c.bind<KeyRevocations>(TOKENS.KeyRevocations).toResolvedValue(
    (cache: CachedAccessQueries, db: Database) => new KeyRevocations(cache, db),
    [TOKENS.AccessQueries, TOKENS.Database],
  );

  // Without Redis the API delivers webhooks itself (docs/reference/running.md#deployments);
  // with Redis the worker deployment relays and delivers, and the API only writes the outbox.
  c.bind<InProcessDelivery | null>(TOKENS.Delivery).toResolvedValue(
    (p: Persistence, policy: DnsWebhookUrlPolicy, metrics: ServiceMetrics) => {
      if (config.redis !== null) return null;
      const delivery = new InProcessDelivery({
        store: p.pipeline,
        endpoints: p.queries.webhooks,
        logger,
        settings: deliverySettings,
        policy,
        observer: metrics.attemptObserver,
      });
      metrics.watchSlots(() => delivery.slotUsage());
      return delivery;
    },
    [TOKENS.Persistence, TOKENS.UrlPolicy, TOKENS.Metrics],
  );

  // Retention runs where delivery does: here without Redis, in the worker with it.
  c.bind<RetentionLoop | null>(TOKENS.Retention).toResolvedValue(
    (p: Persistence, deps: Deps) =>
      config.redis !== null
        ? null
        : new RetentionLoop({
            retention: p.retention,
            clock: deps.clock,
            retentionDays: config.eventRetentionDays,
            logger,
          }),
    [TOKENS.Persistence, TOKENS.Deps],
  );

  // Idempotency keys past their 24 hours go where events past retention go.
  c.bind<IdempotencyRetentionLoop | null>(TOKENS.KeyRetention).toResolvedValue(
    (p: Persistence, deps: Deps) =>
      config.redis !== null
        ? null
        : idempotencyRetentionLoop({ store: p.idempotency, clock: deps.clock, logger }),
    [TOKENS.Persistence, TOKENS.Deps],
  );

  c.bind<RateLimitSetup>(TOKENS.RateLimits).toResolvedValue(() => rateLimitSetup(config, logger));

  c.bind<Express>(TOKENS.HttpApp).toResolvedValue(
    (
      deps: Deps,
      validator: ContractValidator,
      openApiDocument: object,
      revocations: KeyRevocations,
      db: Database,
      metrics: ServiceMetrics,
      rateLimits: RateLimitSetup,
      p: Persistence,
    ) =>
      createHttpApp({
        deps,
        validator,
        openApiDocument,
        logger,
        backofficeToken: secrets.backofficeToken,
        rateLimiter: rateLimits.limiter,
        hooks: {
          keyRevoked: (keyId) => revocations.revoked(keyId),
          connectionRevoked: (providerId, locationId) =>
            revocations.connectionRevoked(providerId, locationId),
        },
        ready: async () => {
          await db.query('SELECT 1');
          return true;
        },
        webhookUrls: webhookUrlRules(config),
        metrics,
        idempotency: p.idempotency,
        onBehalfOf:
          config.databaseReadUrl === null ? undefined : (location, next) => db.onBehalfOf(location, next),
      }),
    [
      TOKENS.Deps,
      TOKENS.Validator,
      TOKENS.OpenApiDocument,
      TOKENS.KeyRevocations,
      TOKENS.Database,
      TOKENS.Metrics,
      TOKENS.RateLimits,
      TOKENS.Persistence,
    ],
  );
  return c;
}
