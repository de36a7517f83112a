import { execSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import {
  createDatabase,
  databaseUrl,
  deleteRedisPrefix,
  dropDatabase,
  postgresInfo,
  type PostgresInfo,
} from './database';
import { parseOptions, USAGE, type BenchOptions } from './options';
import { killAllGroupsNow, ROOT, stopAllGroups } from './processes';
import { writeReport } from './report/write';
import { runBenchmark, type RunPaths } from './run';
import { buildApps } from './services';
import type { ScenarioResult } from './scenario';

const log = (message: string) =>
  process.stdout.write(`[bench ${new Date().toISOString().slice(11, 19)}] ${message}\n`);

/** `pnpm bench`: see tools/bench/README.md. */
async function main(): Promise<void> {
  const parsed = parseOptions(process.argv.slice(2), process.env);
  if (parsed === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const options: BenchOptions = parsed;
  const stamp = new Date().toISOString().replace(/[-:]/g, '').replace(/\..*/, '').replace('T', '-');
  const resultsDir = join(ROOT, 'tools/bench/results', stamp);
  const paths: RunPaths = {
    database: `pis_bench_${stamp.replace('-', '_')}`,
    queuePrefix: `pis_bench_${stamp.replace('-', '_')}`,
    resultsDir,
    logDir: join(resultsDir, 'logs'),
    memoryDir: join(resultsDir, 'memory'),
    profileDir: options.cpuProf ? join(resultsDir, 'profiles') : null,
    cpus: cpus().length,
  };
  for (const dir of [resultsDir, paths.logDir, paths.memoryDir]) mkdirSync(dir, { recursive: true });
  const loadAverageAtStart = loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

  let cleaning: Promise<void> | null = null;
  const cleanup = () =>
    (cleaning ??= (async () => {
      await stopAllGroups();
      if (!options.keep)
        await dropDatabase(paths.database).catch((e) => log(`could not drop ${paths.database}: ${e}`));
      const keys = await deleteRedisPrefix(paths.queuePrefix).catch(() => 0);
      log(
        `cleaned up: ${options.keep ? `kept database ${paths.database}` : `dropped ${paths.database}`}, ${keys} Redis keys`,
      );
    })());
  const interrupted = (signal: NodeJS.Signals) => {
    log(`${signal}: stopping the services and cleaning up`);
    void cleanup().finally(() => process.exit(signal === 'SIGINT' ? 130 : 143));
  };
  process.once('SIGINT', interrupted);
  process.once('SIGTERM', interrupted);
  process.once('exit', killAllGroupsNow);

  if (options.source === 'bundle') {
    log('building the apps as `pnpm start` does (tools/scripts/build-apps.mjs)');
    buildApps();
  }
  log(`database ${paths.database}, Redis prefix ${paths.queuePrefix}, results in ${resultsDir}`);
  const results: ScenarioResult[] = [];
  let postgres: PostgresInfo = { version: '?', settings: {} };
  let failure: unknown = null;
  try {
    await createDatabase(paths.database);
    postgres = await postgresInfo(databaseUrl(paths.database));
    await runBenchmark(options, paths, log, (r) => {
      results.push(r);
      log(summaryLine(r));
    });
  } catch (error) {
    failure = error;
  } finally {
    await cleanup();
  }

  // A failed run still reports what it measured before it failed.
  const report = writeReport(results, paths, {
    command: ['pnpm bench', ...process.argv.slice(2)].join(' '),
    stamp,
    commit: gitCommit(),
    machine: `${paths.cpus} × ${cpus()[0]?.model ?? 'CPU'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB`,
    cpus: paths.cpus,
    node: process.version,
    postgres,
    loadAverageAtStart,
    durationS: options.durationS,
    warmupS: options.warmupS,
    connections: options.connections,
    apiWorkers: options.apiWorkers,
    source:
      options.source === 'bundle'
        ? 'bundles built by tools/scripts/build-apps.mjs (as pnpm start)'
        : 'sources through tsx',
    workerConcurrency:
      options.workerConcurrency === null ? '64 (default)' : String(options.workerConcurrency),
    listReservations: options.listReservations,
    burstEvents: options.webhookEvents,
  });
  log(`report: ${report}`);
  if (failure !== null) throw failure;
}

function summaryLine(r: ScenarioResult): string {
  const roles = r.usage.roles;
  const rss = `RSS api ${roles.api?.peakProcessRssMiB ?? '-'} MiB, worker ${roles.worker?.peakProcessRssMiB ?? '-'} MiB`;
  const cpu = Object.entries(roles)
    .map(([role, u]) => `${role} ${u.cpuCores.toFixed(2)}`)
    .join(' ');
  const name = `${r.name}${r.apiWorkers === null ? '' : ` (w${r.apiWorkers})`}`;
  if (!r.load) return `${name}: ${JSON.stringify(r.metrics)}; ${rss}; cores ${cpu}`;
  const l = r.load;
  return (
    `${name}: ${l.rps} req/s, p50 ${l.latency.p50} ms, p90 ${l.latency.p90} ms, p99 ${l.latency.p99} ms, ` +
    `errors ${l.errors}${l.expectedRefusals ? `, expected refusals ${l.expectedRefusals}` : ''}` +
    `${l.unexpected ? `, unexpected 2xx ${l.unexpected}` : ''}; ${rss}; cores ${cpu}`
  );
}

function gitCommit(): string {
  try {
    const commit = execSync('git rev-parse --short HEAD', { cwd: ROOT }).toString().trim();
    const dirty = execSync('git status --porcelain --untracked-files=no', { cwd: ROOT }).toString().trim();
    return dirty ? `${commit} + uncommitted changes` : commit;
  } catch {
    return 'unknown';
  }
}

main().catch(async (error) => {
  process.stderr.write(`[bench] failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  await stopAllGroups();
  process.exit(1);
});
