import { parseArgs } from 'node:util';
import { defaultAppSource, type AppSource } from './services';

export const SCENARIOS = [
  'baselines',
  'put-applied',
  'put-stale',
  'seat-move',
  'till',
  'list-window',
  'webhook-pipeline',
  'webhook-noisy-neighbour',
  'webhook-fan-out',
  'read-replica',
  'provider-auth',
  'connections-page',
] as const;
export type ScenarioName = (typeof SCENARIOS)[number];

export interface BenchOptions {
  durationS: number;
  warmupS: number;
  connections: number;
  scenarios: Set<ScenarioName>;
  apiWorkers: number[];
  source: AppSource;
  workerConcurrency: number | null;
  listReservations: number;
  webhookEvents: number;
  quick: boolean;
  cpuProf: boolean;
  keep: boolean;
}

export const USAGE = `pnpm bench [options]            (each option also reads PIS_BENCH_<NAME>, e.g. PIS_BENCH_DURATION=10)

  --duration <s>             measured seconds per run (default 20; --quick: 3)
  --warmup <s>               unmeasured warm-up before each run (default 3; --quick: 1)
  --connections <n>          HTTP connections and bare-pg clients (default 32)
  --scenarios <a,b,...>      any of ${SCENARIOS.join(', ')} (default: all)
  --api-workers <n,m,...>    API_WORKERS of each pass over the API scenarios (default 1,2; --quick: 1)
  --source <bundle|source>   run the apps from the bundles pnpm start builds (default when the
                             repository has tools/scripts/build-apps.mjs) or from the sources via tsx
  --worker-concurrency <n>   the worker's WEBHOOK_WORKER_CONCURRENCY (default: the worker's own, 64)
  --list-reservations <n>    reservations in the list-window location (default 1000000; --quick: 100000)
  --webhook-events <n>       events in the webhook burst (default 20000; --quick: 2000)
  --quick                    a short smoke run with the smaller defaults above
  --cpu-prof                 start the API and the worker with --cpu-prof (results/<run>/profiles)
  --keep                     keep the benchmark database (pis_bench_<timestamp>) afterwards
  --help`;

const positive = (name: string, raw: string): number => {
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`--${name} must be a positive number (got "${raw}")`);
  return n;
};

/** Flags first, then `PIS_BENCH_<NAME>` from the environment, then the defaults (smaller with --quick). */
export function parseOptions(argv: string[], env: NodeJS.ProcessEnv): BenchOptions | 'help' {
  const flags = {
    duration: { type: 'string' },
    warmup: { type: 'string' },
    connections: { type: 'string' },
    scenarios: { type: 'string' },
    'api-workers': { type: 'string' },
    'worker-concurrency': { type: 'string' },
    source: { type: 'string' },
    'list-reservations': { type: 'string' },
    'webhook-events': { type: 'string' },
    quick: { type: 'boolean' },
    'cpu-prof': { type: 'boolean' },
    keep: { type: 'boolean' },
    help: { type: 'boolean' },
  } as const;
  const { values } = parseArgs({ args: argv, options: flags, strict: true });
  if (values.help) return 'help';
  const fromEnv = (name: keyof typeof flags) => env[`PIS_BENCH_${name.toUpperCase().replace(/-/g, '_')}`];
  const text = (name: keyof typeof flags, fallback: string): string =>
    (values[name] as string | undefined) ?? fromEnv(name) ?? fallback;
  const flag = (name: keyof typeof flags): boolean =>
    (values[name] as boolean | undefined) ?? ['1', 'true'].includes(fromEnv(name) ?? '');

  const quick = flag('quick');
  const scenarios = text('scenarios', SCENARIOS.join(','))
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const unknown = scenarios.filter((s) => !(SCENARIOS as readonly string[]).includes(s));
  if (unknown.length > 0)
    throw new Error(`unknown scenario(s) ${unknown.join(', ')}; known: ${SCENARIOS.join(', ')}`);
  const concurrency = text('worker-concurrency', '');
  const source = text('source', defaultAppSource());
  if (source !== 'bundle' && source !== 'source')
    throw new Error(`--source must be bundle or source (got "${source}")`);
  return {
    durationS: positive('duration', text('duration', quick ? '3' : '20')),
    warmupS: Number(text('warmup', quick ? '1' : '3')),
    connections: Math.round(positive('connections', text('connections', '32'))),
    scenarios: new Set(scenarios as ScenarioName[]),
    apiWorkers: text('api-workers', quick ? '1' : '1,2')
      .split(',')
      .map((w) => Math.round(positive('api-workers', w.trim()))),
    source,
    workerConcurrency: concurrency ? Math.round(positive('worker-concurrency', concurrency)) : null,
    listReservations: Math.round(
      positive('list-reservations', text('list-reservations', quick ? '100000' : '1000000')),
    ),
    webhookEvents: Math.round(positive('webhook-events', text('webhook-events', quick ? '2000' : '20000'))),
    quick,
    cpuProf: flag('cpu-prof'),
    keep: flag('keep'),
  };
}
