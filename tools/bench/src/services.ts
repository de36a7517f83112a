import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { BACKOFFICE_TOKEN } from './api-client';
import { databaseUrl, redisEnv } from './database';
import { allStats } from './monitor/proc';
import { freePort, ROOT, sleep, startGroup, waitFor, type GroupProcess } from './processes';

/** How the apps are started: from the bundles `pnpm start` builds and runs, or from the sources through tsx. */
export type AppSource = 'bundle' | 'source';

const BUILD_SCRIPT = join(ROOT, 'tools/scripts/build-apps.mjs');

/** `bundle` when the repository builds its apps for `pnpm start` (and so deploys them that way). */
export const defaultAppSource = (): AppSource => (existsSync(BUILD_SCRIPT) ? 'bundle' : 'source');

/** Builds the bundles exactly as `pnpm start` does. */
export function buildApps(): void {
  execFileSync(process.execPath, [BUILD_SCRIPT], { cwd: ROOT, stdio: 'inherit' });
}

const entry = (app: 'api' | 'worker', source: AppSource) =>
  source === 'bundle' ? `apps/${app}/dist/main.js` : `apps/${app}/src/main.ts`;

/**
 * The node flags a bundle runs with in production: those `pnpm start` (api) or
 * `pnpm start:worker` puts before the bundle in the root package.json, e.g.
 * `node --max-semi-space-size=4 apps/api/dist/main.js`. Empty when the script runs no bundle.
 */
export function productionNodeFlags(app: 'api' | 'worker', scripts: Record<string, string>): string[] {
  const script = scripts[app === 'api' ? 'start' : 'start:worker'] ?? '';
  const command = new RegExp(`\\bnode((?:\\s+--\\S+)*)\\s+apps/${app}/dist/main\\.js`).exec(script);
  return command?.[1]?.trim().split(/\s+/).filter(Boolean) ?? [];
}

function rootScripts(): Record<string, string> {
  return (
    (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts?: Record<string, string> })
      .scripts ?? {}
  );
}

export interface ServiceOptions {
  source: AppSource;
  database: string;
  queuePrefix: string;
  apiWorkers: number;
  /** Worker's `WEBHOOK_WORKER_CONCURRENCY`; null keeps its default. */
  workerConcurrency: number | null;
  /** Where `--cpu-prof` writes (per process kind); null: no profiling. */
  cpuProfileDir: string | null;
  /** Where the memory probe writes; null: no probe. */
  memoryDir: string | null;
  logDir: string;
  /** More variables for both processes (e.g. `DATABASE_READ_URL`). */
  extraEnv?: Record<string, string>;
}

export interface RunningServices {
  api: GroupProcess;
  worker: GroupProcess;
  baseUrl: string;
  apiWorkers: number;
  stop(): Promise<void>;
}

const MEMORY_PROBE = pathToFileURL(join(__dirname, 'monitor/memory-probe.cjs')).href;

/** The API (`API_WORKERS` processes) and the webhook worker on PostgreSQL and Redis, ready to serve. */
export async function startServices(options: ServiceOptions): Promise<RunningServices> {
  const port = await freePort();
  const env: Record<string, string> = {
    DATABASE_URL: databaseUrl(options.database),
    ...redisEnv(),
    BACKOFFICE_TOKEN,
    PORT: String(port),
    API_WORKERS: String(options.apiWorkers),
    RATE_LIMIT_RPS: '0',
    LOG_LEVEL: 'warn',
    WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
    WEBHOOK_ALLOW_INSECURE_URLS: 'true',
    WEBHOOK_QUEUE_PREFIX: options.queuePrefix,
    WEBHOOK_RETRY_DELAYS_MS: '1000,5000,30000',
    // Any free port: the default one may be taken on a shared machine.
    WORKER_METRICS_PORT: '0',
    ...(options.workerConcurrency ? { WEBHOOK_WORKER_CONCURRENCY: String(options.workerConcurrency) } : {}),
    ...(options.memoryDir ? { PIS_BENCH_MEMORY_DIR: options.memoryDir } : {}),
    ...options.extraEnv,
  };
  const scripts = rootScripts();
  const nodeArgs = (app: 'api' | 'worker') => {
    const flags = options.source === 'bundle' ? productionNodeFlags(app, scripts) : [];
    if (options.cpuProfileDir === null) return flags;
    const dir = join(options.cpuProfileDir, `${app}-w${options.apiWorkers}`);
    mkdirSync(dir, { recursive: true });
    return [...flags, '--cpu-prof', `--cpu-prof-dir=${dir}`];
  };
  const imports = options.memoryDir ? [MEMORY_PROBE] : [];
  const tag = `w${options.apiWorkers}`;

  const api = startGroup(`api (API_WORKERS=${options.apiWorkers})`, entry('api', options.source), {
    env,
    nodeArgs: nodeArgs('api'),
    imports,
    logFile: join(options.logDir, `api-${tag}.log`),
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  const died = (p: GroupProcess) => () => (p.exited() ? `${p.name} exited:\n${p.output()}` : null);
  await waitFor('the API', async () => (await fetch(`${baseUrl}/readyz`)).ok, 90_000, died(api));
  // Cluster mode: the primary and every worker process are up before load starts.
  const processes = options.apiWorkers === 1 ? 1 : options.apiWorkers + 1;
  await waitFor(
    `${processes} API processes`,
    async () => allStats().filter((s) => s.pgrp === api.group && s.comm === 'node').length >= processes,
    30_000,
    died(api),
  );

  const worker = startGroup('worker', entry('worker', options.source), {
    env,
    nodeArgs: nodeArgs('worker'),
    imports,
    logFile: join(options.logDir, `worker-${tag}.log`),
  });
  await sleep(2_000);
  const reason = died(worker)();
  if (reason) throw new Error(reason);

  return {
    api,
    worker,
    baseUrl,
    apiWorkers: options.apiWorkers,
    async stop() {
      await Promise.all([api.stop(), worker.stop()]);
    },
  };
}
