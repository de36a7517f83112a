import type { Express } from 'express';
import type { Container } from 'inversify';
import type { Deps } from '@pis/domain';
import type { Database } from '@pis/persistence';
import type { Config, Logger } from '@pis/runtime';
import type {
  HttpWebhookSender,
  IdempotencyRetentionLoop,
  InProcessDelivery,
  RetentionLoop,
} from '@pis/webhooks';
import { buildApiContainer, type ApiOverrides } from './container';
import type { KeyRevocations } from './key-revocations';
import { lockDataDir } from './data-dir-lock';
import type { RateLimitSetup } from './rate-limit-setup';
import { resolveSecrets, type ResolvedSecrets } from './secrets-setup';
import { TOKENS } from './tokens';

export interface ApiRuntime {
  app: Express;
  deps: Deps;
  db: Database;
  secrets: ResolvedSecrets;
  /** Tells every API process that a key was revoked (cache invalidation). */
  keyRevoked(keyId: string): Promise<void>;
  /** Drops a revoked connection from every API process's cache (see `KeyRevocations`). */
  connectionRevoked(providerId: string, locationId: string): Promise<void>;
  /** Starts the background work: key revocation listener, in-process webhook delivery, retention. */
  start(): Promise<void>;
  /** Stops the background work and closes the database (after the HTTP server has closed). */
  stop(): Promise<void>;
}

/**
 * What an operator command at a shell needs (`pnpm cli`): the migrated database and the use
 * cases' ports, nothing more. No HTTP app, contract validator, OpenAPI document, metrics,
 * rate limits, webhook delivery or retention is built or started.
 */
export interface OperatorRuntime {
  deps: Deps;
  /** Tells every API process that a key was revoked (cache invalidation). */
  keyRevoked(keyId: string): Promise<void>;
  /** Tells every API process that a connection was revoked (cache invalidation). */
  connectionRevoked(providerId: string, locationId: string): Promise<void>;
  /** Closes the database and lets the data directory go. */
  stop(): Promise<void>;
}

/** The container on `config`'s database (the data directory locked in embedded mode), and the first thing resolved from it. */
async function openContainer<T>(
  config: Config,
  logger: Logger,
  overrides: ApiOverrides,
  first: symbol,
): Promise<{ container: Container; secrets: ResolvedSecrets; unlock: () => Promise<void>; resolved: T }> {
  const secrets = await resolveSecrets(config);
  const unlock = config.databaseUrl === null ? await lockDataDir(config.dataDir) : async () => undefined;
  const container = buildApiContainer(config, logger, secrets, overrides);
  try {
    return { container, secrets, unlock, resolved: await container.getAsync<T>(first) };
  } catch (error) {
    await unlock();
    throw error;
  }
}

export async function createOperatorRuntime(config: Config, logger: Logger): Promise<OperatorRuntime> {
  const { container, unlock, resolved: deps } = await openContainer<Deps>(config, logger, {}, TOKENS.Deps);
  return {
    deps,
    keyRevoked: async (keyId) =>
      (await container.getAsync<KeyRevocations>(TOKENS.KeyRevocations)).revoked(keyId),
    connectionRevoked: async (providerId, locationId) =>
      (await container.getAsync<KeyRevocations>(TOKENS.KeyRevocations)).connectionRevoked(
        providerId,
        locationId,
      ),
    async stop() {
      (await container.getAsync<HttpWebhookSender>(TOKENS.TestSender)).close();
      await (await container.getAsync<Database>(TOKENS.Database)).close();
      await container.unbindAll();
      await unlock();
    },
  };
}

/** Resolves the whole API from configuration: migrations applied, nothing listening yet. */
export async function createApiRuntime(
  config: Config,
  logger: Logger,
  overrides: ApiOverrides = {},
): Promise<ApiRuntime> {
  const opened = await openContainer<Express>(config, logger, overrides, TOKENS.HttpApp);
  const { container, secrets, unlock, resolved: app } = opened;
  const deps = await container.getAsync<Deps>(TOKENS.Deps);
  const db = await container.getAsync<Database>(TOKENS.Database);
  const revocations = await container.getAsync<KeyRevocations>(TOKENS.KeyRevocations);
  const delivery = await container.getAsync<InProcessDelivery | null>(TOKENS.Delivery);
  const retention = await container.getAsync<RetentionLoop | null>(TOKENS.Retention);
  const keyRetention = await container.getAsync<IdempotencyRetentionLoop | null>(TOKENS.KeyRetention);
  const testSender = await container.getAsync<HttpWebhookSender>(TOKENS.TestSender);
  const rateLimits = await container.getAsync<RateLimitSetup>(TOKENS.RateLimits);
  return {
    app,
    deps,
    db,
    secrets,
    keyRevoked: (keyId) => revocations.revoked(keyId),
    connectionRevoked: (providerId, locationId) => revocations.connectionRevoked(providerId, locationId),
    async start() {
      await revocations.start();
      await delivery?.start();
      retention?.start();
      keyRetention?.start();
    },
    async stop() {
      await keyRetention?.stop();
      await retention?.stop();
      await delivery?.stop();
      await revocations.stop();
      testSender.close();
      await rateLimits.close();
      await db.close();
      await container.unbindAll();
      await unlock();
    },
  };
}
