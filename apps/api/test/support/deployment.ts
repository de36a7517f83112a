import { randomBytes } from 'node:crypto';
import request from 'supertest';
import type { ApiProcess } from './api-process';
import type { Receiver } from './receiver';
import { B, P, planImport } from './wire';

/**
 * Black-box deployments (API and worker processes, PgBouncer, the built bundles): what their
 * suites share. Everything goes through HTTP as an operator and a provider would.
 */
/** Named so that the test run's log scan (tools/scripts/scan-test-logs.mjs) would find it in a log line. */
export const BACKOFFICE_TOKEN = 'deployment-test-backoffice-token-0123';
export const METRICS_TOKEN = 'deployment-metrics-token-0123456789';

/** The environment both processes of a test deployment share. */
export function deploymentEnv(
  databaseUrl: string,
  extra: Record<string, string> = {},
): Record<string, string> {
  return {
    DATABASE_URL: databaseUrl,
    BACKOFFICE_TOKEN,
    SECRETS_KEY: SHARED_SECRETS_KEY,
    WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
    WEBHOOK_ALLOW_INSECURE_URLS: 'true',
    WEBHOOK_RETRY_DELAYS_MS: '100,200,400,800',
    WEBHOOK_TIMEOUT_MS: '2000',
    RATE_LIMIT_RPS: '0',
    // The worker announces its start (and metrics port) in an info line.
    LOG_LEVEL: 'info',
    // Their log lines join the test run's, which are scanned for secrets afterwards.
    ...(process.env['PIS_LOG_CAPTURE_DIR']
      ? { PIS_LOG_CAPTURE_DIR: process.env['PIS_LOG_CAPTURE_DIR'] }
      : {}),
    ...extra,
  };
}

const SHARED_SECRETS_KEY = randomBytes(32).toString('base64');

export interface HookedLocation {
  id: string;
  key: string;
  ops: (path: string) => string;
  tables: string[];
  /** Where its webhooks arrive at the receiver. */
  path: string;
  secret: string;
}

/**
 * A location through the API: key, plan imported, endpoint at `receiver` +
 * `/hooks/<id><suffix>` (a receiver may answer by suffix), plan published.
 */
export async function hookedLocation(
  api: ApiProcess,
  receiver: Receiver,
  suffix = '',
): Promise<HookedLocation> {
  const created = await api.call('post', `${B}/locations`, BACKOFFICE_TOKEN, {
    name: 'Deployed',
    brand: 'test',
  });
  expect(created.status).toBe(201);
  const id = created.body.id as string;
  const ops = (path: string) => `${B}/locations/${id}${path}`;
  const issued = await api.call('post', ops('/api-keys'), BACKOFFICE_TOKEN);
  expect(issued.status).toBe(201);
  const key = issued.body.key as string;
  const imported = await api.call('post', `${P}/floorplan/import`, key, planImport({ tables: 4 }));
  expect(imported.status).toBe(201);
  const tables = (imported.body.mapping as { tableId: string }[]).map((m) => m.tableId);
  // Registered before the first event: the relay fans out to the endpoint that exists when it relays.
  const path = `/hooks/${id}${suffix}`;
  const registered = await api.call('put', `${P}/webhook-endpoint`, key, {
    url: `${receiver.origin}${path}`,
  });
  expect(registered.status).toBe(200);
  expect((await api.call('post', ops('/floorplan/publish'), BACKOFFICE_TOKEN)).status).toBe(200);
  return { id, key, ops, tables, path, secret: registered.body.secret as string };
}

/** Opens and closes one walk-in order on `table` through the till: table.occupied, then table.freed and order.closed. */
export async function openAndClose(api: ApiProcess, location: HookedLocation, table: string): Promise<void> {
  const opened = await api.call('post', location.ops('/orders'), BACKOFFICE_TOKEN, {
    tableIds: [table],
    covers: 2,
  });
  expect(opened.status).toBe(201);
  const closed = await api.call('post', location.ops(`/orders/${opened.body.id}/close`), BACKOFFICE_TOKEN);
  expect(closed.status).toBe(200);
}

/**
 * How long a process of these suites may take to start: through tsx, on a machine whose two
 * cores the whole test run shares, compiling the sources and the validators takes a while.
 */
export const START_TIMEOUT_MS = 90_000;

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function waitUntil(
  what: string,
  check: () => Promise<boolean>,
  timeoutMs = 30_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(100);
  }
}

/** `GET <baseUrl>/metrics` with the metrics token; the Prometheus text. */
export async function scrape(baseUrl: string, token: string | null = METRICS_TOKEN): Promise<string> {
  const call = request(baseUrl).get('/metrics').timeout(10_000);
  const res = await (token === null ? call : call.set('Authorization', `Bearer ${token}`));
  if (res.status !== 200) throw new Error(`/metrics answered ${res.status}: ${res.text}`);
  return res.text;
}

/** The worker's metrics port, from its start line. */
export function metricsPortOf(workerLog: string): number {
  const m = /"metricsPort":(\d+)/.exec(workerLog);
  if (m === null) throw new Error(`the worker did not log its metrics port:\n${workerLog}`);
  return Number(m[1]);
}
