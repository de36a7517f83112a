import { execFileSync } from 'node:child_process';
import { cpus } from 'node:os';
import { mkdirSync, writeFileSync, copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import Redis from 'ioredis';
import { barePg, bareExpress } from './baselines/run-baselines';
import { adminQuery, databaseUrl, REDIS_URL, startServices, type RunningServices } from './env';
import { ROOT } from './processes';
import { markdownReport } from './report/markdown';
import { latencyChart } from './report/svg';
import { checkTargets } from './report/targets';
import type { ScenarioContext, ScenarioResult } from './scenario';
import { listWindow, seedListLocation, LIST_RESERVATIONS } from './scenarios/list-window';
import { PutWrites } from './scenarios/put-writes';
import { seatMove } from './scenarios/seat-move';
import { webhookPipeline } from './scenarios/webhook-pipeline';
import { provisionLocation } from './seed';

const ALL = [
  'baselines',
  'put-applied',
  'put-stale',
  'seat-move',
  'list-window',
  'webhook-pipeline',
] as const;

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '20' },
    connections: { type: 'string', default: '32' },
    scenarios: { type: 'string', default: ALL.join(',') },
    'api-workers': { type: 'string', default: '1' },
    quick: { type: 'boolean', default: false },
    'cpu-prof': { type: 'boolean', default: false },
    keep: { type: 'boolean', default: false },
  },
});

async function main(): Promise<void> {
  const stamp = new Date().toISOString().replace(/[-:]/g, '').replace(/\..*/, '').replace('T', '-');
  const durationS = values.quick ? 5 : Number(values.duration);
  const connections = Number(values.connections);
  const apiWorkers = Number(values['api-workers']);
  const wanted = new Set(values.scenarios!.split(',').map((s) => s.trim()));
  const database = `pis_bench_${stamp.replace('-', '_')}`;
  const resultsDir = join(ROOT, 'tools/bench/results', stamp);
  mkdirSync(resultsDir, { recursive: true });
  const log = (message: string) => process.stdout.write(`[bench] ${message}\n`);

  log('building the apps as `pnpm start` runs them');
  execFileSync(process.execPath, [join(ROOT, 'tools/scripts/build-apps.mjs')], { stdio: 'inherit' });
  log(`database ${database}, results in ${resultsDir}`);
  await adminQuery(`CREATE DATABASE ${database}`);
  let services: RunningServices | null = null;
  const results: ScenarioResult[] = [];
  const stop = async () => {
    await services?.stop();
    services = null;
  };
  process.once('SIGINT', () => void stop().then(() => process.exit(130)));
  try {
    services = await startServices({
      database,
      queuePrefix: `bench-${stamp}`,
      apiWorkers,
      cpuProfileDir: values['cpu-prof'] ? join(resultsDir, 'profiles') : null,
    });
    const ctx: ScenarioContext = { services, databaseUrl: databaseUrl(database), durationS, connections };
    const record = (result: ScenarioResult) => {
      results.push(result);
      const l = result.load;
      log(
        `${result.name}: ${l ? `${l.rps} req/s, p50 ${l.latency.p50} ms, p90 ${l.latency.p90} ms, p99 ${l.latency.p99} ms, errors ${l.errors}` : JSON.stringify(result.metrics)}; ` +
          `RSS api ${result.resources.api?.peakRssMiB} MiB, worker ${result.resources.worker?.peakRssMiB} MiB`,
      );
    };

    if (wanted.has('baselines')) {
      log('baseline: bare pg');
      record(await barePg(ctx));
      log('baseline: bare express');
      record(await bareExpress(ctx, services));
    }
    const writes = await provisionLocation(services.baseUrl, 200);
    const puts = new PutWrites(ctx, writes);
    if (wanted.has('put-applied') || wanted.has('put-stale')) {
      log('seeding 20,000 reservations for the PUT scenarios');
      await puts.seed();
      log('put-applied');
      const applied = await puts.runApplied();
      applied.notes.push(await puts.verify());
      record(applied);
      log('put-applied at half the maximum rate');
      record(await puts.runApplied(Math.max(1, Math.round(applied.load!.rps / 2))));
      if (wanted.has('put-stale')) {
        log('put-stale');
        record(await puts.runStale());
      }
    }
    if (wanted.has('seat-move')) {
      log('seat-move');
      record(await seatMove(ctx, writes));
    }
    if (wanted.has('list-window')) {
      const listing = await provisionLocation(services.baseUrl, 50);
      const count = values.quick ? 100_000 : LIST_RESERVATIONS;
      log(`seeding ${count.toLocaleString('en')} reservations for list-window (takes a while)`);
      await seedListLocation(ctx, listing, count);
      log('list-window');
      const listed = await listWindow(ctx, listing, Math.floor(count / 100));
      record(listed);
      log('list-window at half the maximum rate');
      record(
        await listWindow(
          ctx,
          listing,
          Math.floor(count / 100),
          Math.max(1, Math.round(listed.load!.rps / 2)),
        ),
      );
    }
    if (wanted.has('webhook-pipeline')) {
      log('webhook-pipeline');
      record(await webhookPipeline(ctx, await provisionLocation(services.baseUrl, 50)));
    }
  } finally {
    await stop();
    if (!values.keep)
      await adminQuery(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`).catch(() => undefined);
    await cleanRedis(`bench-${stamp}`);
  }

  const targets = checkTargets(results);
  const command = `pnpm bench ${process.argv.slice(2).join(' ')}`.trim();
  const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, Node ${process.version}`;
  const info = { command, startedAt: stamp, machine, apiWorkers, durationS, connections };
  writeFileSync(join(resultsDir, 'result.json'), JSON.stringify({ info, targets, results }, null, 2));
  for (const r of results.filter((x) => x.timeline.length > 0)) {
    writeFileSync(join(resultsDir, `${r.name}.svg`), latencyChart(r.name, r.timeline));
  }
  writeFileSync(join(resultsDir, 'report.md'), markdownReport(info, results, targets));
  copyFileSync(join(resultsDir, 'report.md'), join(ROOT, 'tools/bench/results/latest.md'));
  log(`report: ${join(resultsDir, 'report.md')}`);
  for (const t of targets)
    log(`${t.pass ? 'PASS' : 'MISS'} ${t.what}: ${t.measured} (goal ${t.goal}; ${t.margin})`);
}

async function cleanRedis(prefix: string): Promise<void> {
  const redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await redis.connect();
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
      if (keys.length > 0) await redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  } catch {
    // Redis is optional for cleaning; the prefix is unique to the run.
  } finally {
    redis.disconnect();
  }
}

main().catch((error) => {
  process.stderr.write(`[bench] failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
