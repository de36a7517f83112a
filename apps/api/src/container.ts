import { Container } from 'inversify';
import type { Express } from 'express';
import type { DataSource } from 'typeorm';
import type { AccessQueries, Deps, WebhookUrlPolicy } from '@pis/domain';
import { buildOpenApiDocument, createValidator, type ContractValidator } from '@pis/contract';
import { CachedAccessQueries, createHttpApp } from '@pis/http';
import { createDataSource, createPersistence, runMigrations, type Persistence } from '@pis/persistence';
import {
  CryptoSecretFactory,
  RandomIdGenerator,
  Sha256KeyHasher,
  SystemClock,
  type Config,
  type Logger,
} from '@pis/runtime';
import { DnsWebhookUrlPolicy, InProcessDelivery, type Resolver } from '@pis/webhooks';
import { KeyRevocations } from './key-revocations';
import type { ResolvedSecrets } from './secrets-setup';
import { TOKENS } from './tokens';

export interface ApiOverrides {
  /** DNS for webhook URLs (tests resolve names without a network). */
  resolver?: Resolver;
  /** PostgreSQL pool size per pool (units of work, reads). */
  poolSize?: number;
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

  c.bind<DataSource>(TOKENS.DataSource).toResolvedValue(async () => {
    const target =
      config.databaseUrl === null
        ? { dataDir: config.dataDir }
        : { databaseUrl: config.databaseUrl, poolSize: overrides.poolSize, applicationName: 'pis-api' };
    const db = await createDataSource(target);
    const applied = await runMigrations(db);
    if (applied.length > 0) logger.info({ migrations: applied }, 'migrations applied');
    return db;
  });

  c.bind<Persistence>(TOKENS.Persistence).toResolvedValue(
    (db: DataSource) =>
      createPersistence(db, {
        cipher: secrets.cipher,
        onListenerError: (err) => logger.error({ err }, 'events-committed listener failed'),
      }),
    [TOKENS.DataSource],
  );

  c.bind<CachedAccessQueries>(TOKENS.AccessQueries).toResolvedValue(
    (p: Persistence) => new CachedAccessQueries(p.queries.access),
    [TOKENS.Persistence],
  );

  c.bind<WebhookUrlPolicy>(TOKENS.UrlPolicy).toConstantValue(
    new DnsWebhookUrlPolicy(
      { allowPrivate: config.webhookAllowPrivateUrls, allowInsecure: config.webhookAllowInsecureUrls },
      overrides.resolver,
    ),
  );

  c.bind<Deps>(TOKENS.Deps).toResolvedValue(
    (p: Persistence, access: AccessQueries, urlPolicy: WebhookUrlPolicy): Deps => ({
      uow: p.uow,
      plainWrites: p.plainWrites,
      queries: { ...p.queries, access },
      clock: new SystemClock(),
      ids: new RandomIdGenerator(),
      hasher: new Sha256KeyHasher(),
      secrets: new CryptoSecretFactory(),
      urlPolicy,
    }),
    [TOKENS.Persistence, TOKENS.AccessQueries, TOKENS.UrlPolicy],
  );

  c.bind<ContractValidator>(TOKENS.Validator).toResolvedValue(() => createValidator());
  c.bind<object>(TOKENS.OpenApiDocument).toResolvedValue(() => buildOpenApiDocument());

  c.bind<KeyRevocations>(TOKENS.KeyRevocations).toResolvedValue(
    (cache: CachedAccessQueries, db: DataSource) => new KeyRevocations(cache, db, config.databaseUrl, logger),
    [TOKENS.AccessQueries, TOKENS.DataSource],
  );

  // Without Redis the API delivers webhooks itself (decisions section 9); with Redis the
  // worker deployment relays and delivers, and the API only writes the outbox.
  c.bind<InProcessDelivery | null>(TOKENS.Delivery).toResolvedValue(
    (db: DataSource, p: Persistence) => {
      if (config.redisUrl !== null) return null;
      const delivery = new InProcessDelivery({
        db,
        endpoints: p.queries.webhooks,
        logger,
        databaseUrl: config.databaseUrl,
        resolver: overrides.resolver,
        settings: {
          retryDelaysMs: config.webhookRetryDelaysMs,
          timeoutMs: config.webhookTimeoutMs,
          allowPrivateUrls: config.webhookAllowPrivateUrls,
          allowInsecureUrls: config.webhookAllowInsecureUrls,
        },
      });
      p.uow.onEventsCommitted(() => delivery.wake());
      return delivery;
    },
    [TOKENS.DataSource, TOKENS.Persistence],
  );

  c.bind<Express>(TOKENS.HttpApp).toResolvedValue(
    (
      deps: Deps,
      validator: ContractValidator,
      openApiDocument: object,
      revocations: KeyRevocations,
      db: DataSource,
    ) =>
      createHttpApp({
        deps,
        validator,
        openApiDocument,
        logger,
        backofficeToken: secrets.backofficeToken,
        rateLimitRps: config.rateLimitRps,
        hooks: { keyRevoked: (keyId) => revocations.revoked(keyId) },
        ready: async () => {
          await db.query('SELECT 1');
          return true;
        },
      }),
    [TOKENS.Deps, TOKENS.Validator, TOKENS.OpenApiDocument, TOKENS.KeyRevocations, TOKENS.DataSource],
  );
  return c;
}
