import type { Express } from 'express';
import type { Deps } from '@pis/domain';
import type { Database } from '@pis/persistence';
import type { Config, Logger } from '@pis/runtime';
import type { HttpWebhookSender, InProcessDelivery, RetentionLoop } from '@pis/webhooks';
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
  /** Starts the background work: key revocation listener, in-process webhook delivery. */
  start(): Promise<void>;
  /** Stops the background work and closes the database (after the HTTP server has closed). */
  stop(): Promise<void>;
}

/** Resolves the whole API from configuration: migrations applied, nothing listening yet. */
export async function createApiRuntime(
  config: Config,
  logger: Logger,
  overrides: ApiOverrides = {},
): Promise<ApiRuntime> {
  const secrets = await resolveSecrets(config);
  const unlock = config.databaseUrl === null ? await lockDataDir(config.dataDir) : async () => undefined;
  const container = buildApiContainer(config, logger, secrets, overrides);
  let app: Express;
  try {
    app = await container.getAsync<Express>(TOKENS.HttpApp);
  } catch (error) {
    await unlock();
    throw error;
  }
  const deps = await container.getAsync<Deps>(TOKENS.Deps);
  const db = await container.getAsync<Database>(TOKENS.Database);
  const revocations = await container.getAsync<KeyRevocations>(TOKENS.KeyRevocations);
  const delivery = await container.getAsync<InProcessDelivery | null>(TOKENS.Delivery);
  const retention = await container.getAsync<RetentionLoop | null>(TOKENS.Retention);
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
    },
    async stop() {
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
