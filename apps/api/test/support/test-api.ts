import type { Server } from 'node:http';
import { createTestDatabase, type TestDatabase } from '@pis/persistence/test-support';
import { createLogger, loadConfig, type Config, type Logger } from '@pis/runtime';
import { createApiRuntime, type ApiRuntime } from '../../src/api-runtime';
import type { ApiOverrides } from '../../src/container';
import { listen, SERVER_LIMITS, type ServerLimits } from '../../src/http-server';

export const BACKOFFICE_TOKEN = 'test-backoffice-token-0123';

/** What every suite's runtime is configured with; a test adds or overrides variables. */
export const TEST_ENV: Record<string, string> = {
  BACKOFFICE_TOKEN,
  RATE_LIMIT_RPS: '0',
  WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
  WEBHOOK_ALLOW_INSECURE_URLS: 'true',
  LOG_LEVEL: 'silent',
};

export interface TestApi {
  runtime: ApiRuntime;
  /** The API on a loopback port: every supertest request of the file shares this server. */
  server: Server;
  baseUrl: string;
  /** Closes the server and the runtime; the database stays (several runtimes may share it). */
  close(): Promise<void>;
}

/** The real composition root on `databaseUrl`, listening on 127.0.0.1 (nothing started unless asked). */
export async function startTestApi(
  databaseUrl: string,
  env: Record<string, string> = {},
  overrides: ApiOverrides = {},
  logger?: Logger,
  /** Shorter server limits for the tests of the limits themselves; every other suite runs the production ones. */
  limits: Readonly<ServerLimits> = SERVER_LIMITS,
): Promise<TestApi> {
  const config = loadConfig({
    ...TEST_ENV,
    DATABASE_URL: databaseUrl,
    ...readReplica(databaseUrl),
    ...redisCluster(env),
    ...env,
  });
  const log = logger ?? createLogger(config.logLevel);
  const runtime = await createApiRuntime(config, log, overrides);
  if (config.redis !== null && 'clusterNodes' in config.redis && !env['REDIS_CLUSTER_NODES'])
    await withQueuedDelivery(runtime, config, log, overrides);
  // The production server settings (timeouts, header limits), on a loopback port.
  const running = await listen(runtime.app, 0, '127.0.0.1', limits);
  return {
    runtime,
    server: running.server,
    baseUrl: `http://127.0.0.1:${running.port}`,
    async close() {
      await running.close(1_000);
      await runtime.stop();
    },
  };
}

/**
 * `DATABASE_READ_URL` on the replica that `pnpm test:replica` started for the run (its port in
 * `PIS_TEST_READ_REPLICA_PORT`): every suite's API then reads from it where it may.
 */
function readReplica(databaseUrl: string): Record<string, string> {
  const port = process.env['PIS_TEST_READ_REPLICA_PORT'];
  if (!port) return {};
  const url = new URL(databaseUrl);
  url.hostname = '127.0.0.1';
  url.port = port;
  return { DATABASE_READ_URL: url.toString() };
}

/**
 * For a test whose premise is an API without Redis: names no Redis, so the run's cluster
 * (`pnpm test:scaled-out`) is not given either; in any other run it changes nothing.
 */
export const WITHOUT_REDIS: Readonly<Record<string, string>> = { REDIS_URL: '', REDIS_CLUSTER_NODES: '' };

/**
 * `REDIS_CLUSTER_NODES` on the Redis Cluster that `pnpm test:scaled-out` started for the run (its
 * seed nodes in `PIS_TEST_REDIS_CLUSTER_NODES`), unless the test names its own Redis (or none,
 * `WITHOUT_REDIS`): every suite's API then keeps its rate-limit counters and write positions
 * there, and leaves webhook delivery to the queue (see `withQueuedDelivery`).
 */
function redisCluster(env: Record<string, string>): Record<string, string> {
  const nodes = process.env['PIS_TEST_REDIS_CLUSTER_NODES'];
  if (!nodes || env['REDIS_URL'] !== undefined || env['REDIS_CLUSTER_NODES'] !== undefined) return {};
  return { REDIS_CLUSTER_NODES: nodes };
}

/**
 * With Redis the API delivers no webhooks itself: the worker relays the outbox into the queue
 * and delivers. So that a suite which starts delivery (`runtime.start()`) sees its webhooks
 * arrive as it would without Redis, starting the API's background work here also starts a
 * worker in this process, on the API's database and the run's cluster (its queue under a
 * prefix of its own database's name, so the files of one run never take each other's
 * deliveries), and stopping the API stops it.
 */
async function withQueuedDelivery(
  runtime: ApiRuntime,
  config: Config,
  logger: Logger,
  overrides: ApiOverrides,
): Promise<void> {
  // Loaded only here: nothing of the worker is loaded for an ordinary run.
  const { createWorkerRuntime } = await import('@pis/worker');
  const database = new URL(config.databaseUrl!).pathname.slice(1);
  const settings = {
    databaseUrl: config.databaseUrl!,
    redis: config.redis!,
    queuePrefix: `t.${database}`.slice(0, 64),
    // 16 slots (a pool of 10 connections, the worker's least) are plenty for a suite's few
    // deliveries; at the default 64 every file's worker held up to 32 connections, and two
    // files at once beside other work on one server ran out of them (too many clients).
    concurrency: 16,
    metricsPort: 0,
  };
  let worker: Awaited<ReturnType<typeof createWorkerRuntime>> | null = null;
  const start = runtime.start.bind(runtime);
  const stop = runtime.stop.bind(runtime);
  const mutable = runtime as { start: () => Promise<void>; stop: () => Promise<void> };
  mutable.start = async () => {
    await start();
    if (worker !== null) return;
    worker = await createWorkerRuntime(config, settings, logger, {
      ...(overrides.resolver ? { resolver: overrides.resolver } : {}),
      ...(overrides.clock ? { clock: overrides.clock } : {}),
    });
    await worker.start();
  };
  mutable.stop = async () => {
    const running = worker;
    worker = null;
    await running?.stop();
    await stop();
  };
}

/** One fresh database and one API per test file. */
export async function startTestDatabase(): Promise<TestDatabase> {
  return createTestDatabase({ poolSize: 2 });
}
