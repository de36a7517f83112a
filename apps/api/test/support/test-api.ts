import type { Server } from 'node:http';
import { createTestDatabase, type TestDatabase } from '@pis/persistence/test-support';
import { createLogger, loadConfig, type Logger } from '@pis/runtime';
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
  const config = loadConfig({ ...TEST_ENV, DATABASE_URL: databaseUrl, ...readReplica(databaseUrl), ...env });
  const runtime = await createApiRuntime(config, logger ?? createLogger(config.logLevel), overrides);
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

/** One fresh database and one API per test file. */
export async function startTestDatabase(): Promise<TestDatabase> {
  return createTestDatabase({ poolSize: 2 });
}
