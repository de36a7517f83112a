import type { LoadResult } from './load/outcomes';
import { PgWaitSampler, type WaitProfile } from './monitor/pg-waits';
import { ResourceSampler, type ProcessSelector, type UsageReport } from './monitor/resources';
import { sleep } from './processes';
import type { Bucket } from './report/stats';
import type { RunningServices } from './services';

export interface ScenarioContext {
  services: RunningServices;
  database: string;
  databaseUrl: string;
  durationS: number;
  warmupS: number;
  connections: number;
  cpus: number;
  memoryDir: string | null;
  resultsDir: string;
  log(message: string): void;
}

/** Which baseline a scenario's throughput is divided by. */
export interface BaselineRefs {
  pg?: string;
  express?: string;
}

export interface ScenarioResult {
  /** e.g. `put-applied`, `put-applied-half-rate`, `baseline-bare-pg`. */
  name: string;
  /** API processes the scenario ran against; null for the baselines. */
  apiWorkers: number | null;
  /** What it does, one sentence. */
  description: string;
  load: LoadResult | null;
  usage: UsageReport;
  waits: WaitProfile | null;
  /** Further figures (rates, checks), by name. */
  metrics: Record<string, number | string>;
  /** Latency over time for the chart (also for scenarios without an HTTP load). */
  timeline: Bucket[];
  /** Width of the timeline's buckets, ms (default 250). */
  bucketMs?: number;
  notes: string[];
  baselines: BaselineRefs;
}

export type Measured<T> = { value: T; usage: UsageReport; waits: WaitProfile | null };

/** Pause before each measured run, so that what the previous run left in flight has drained. */
const SETTLE_MS = 1_000;

/**
 * Runs `work` (after a short settling pause) while sampling RSS and CPU of the API, the
 * worker, PostgreSQL, Redis and this process (plus `extra` roles), and PostgreSQL's wait
 * events on the benchmark database.
 */
export async function measure<T>(
  ctx: Pick<ScenarioContext, 'services' | 'cpus' | 'memoryDir' | 'databaseUrl' | 'database'>,
  work: () => Promise<T>,
  extra: Record<string, ProcessSelector> = {},
): Promise<Measured<T>> {
  const resources = new ResourceSampler(
    {
      api: { group: ctx.services.api.group },
      worker: { group: ctx.services.worker.group },
      postgres: { comm: 'postgres' },
      redis: { comm: 'redis-server' },
      bench: { pid: process.pid },
      ...extra,
    },
    ctx.cpus,
    ctx.memoryDir,
  );
  await sleep(SETTLE_MS);
  const waits = new PgWaitSampler(ctx.databaseUrl, ctx.database);
  await waits.start();
  resources.start();
  try {
    const value = await work();
    return { value, usage: resources.stop(), waits: await waits.stop() };
  } catch (error) {
    resources.stop();
    await waits.stop();
    throw error;
  }
}

/** The roles every report shows, in this order. */
export const ROLES = ['api', 'worker', 'postgres', 'redis', 'bench', 'baseline'] as const;

/** A measured HTTP load as a result: `apiWorkers` null for a baseline. */
export function measuredResult(
  fields: Pick<ScenarioResult, 'name' | 'apiWorkers' | 'description' | 'notes' | 'baselines'>,
  run: Measured<LoadResult>,
): ScenarioResult {
  return {
    ...fields,
    load: run.value,
    usage: run.usage,
    waits: run.waits,
    metrics: {},
    timeline: run.value.timeline,
  };
}
