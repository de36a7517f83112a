import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { createDatabase, databaseUrl, dropDatabase } from './database';
import { ROOT } from './processes';
import { summarizeProfileDir, top } from './report/cpu-profile';

/*
 * What tracing costs the write path (docs/decisions/0230-trace-propagation.md): API processes
 * from the production bundle on one database, one per side: `off` (no OTEL_* at all: no SDK
 * loaded) and one per sampler named (`always_off`: SDK and instrumentations on, nothing
 * recorded; `always_on`: every trace recorded and exported, OTLP http/protobuf, to a local
 * sink that answers 200; `traceidratio:0.1`...). Each takes reservation writes (POST
 * /reservations, each a transaction with its outbox row) from WRITERS concurrent clients of its
 * own, in ROUNDS rounds of SECONDS after a warm-up round nobody counts. By default every side
 * takes its writes at the same time (PIS_TRACE_MODE=together): on a machine shared with other
 * work, whatever else runs then slows every side alike, where one side after the other
 * (PIS_TRACE_MODE=alternate, the order rotated every round) lets a burst of other work land on
 * one side only. Reports, per side, the median over rounds of the API process's CPU per write
 * and of writes/s, the p50/p99 latency of every write, and the overhead against the first
 * side (`off`): the median of each round's ratio. The load average before and after says how
 * busy the machine was.
 *
 *   node tools/scripts/build-apps.mjs apps/api && pnpm tsx tools/bench/src/tracing-cost.ts
 *   PIS_TRACE_SIDES   comma-separated sides, default `off,always_off,always_on`;
 *                     `off,off` shows what the machine's noise alone makes of two equal sides;
 *                     `<side>@<bundle>` runs another build (e.g. a copy of apps/api/dist made
 *                     before a change, at the same depth: `always_off@apps/api/dist-before/main.js`)
 *                     and `<side>+VAR=value` sets a variable of that side's API (e.g.
 *                     `parentbased_traceidratio:0.1+OTEL_BSP_SCHEDULE_DELAY=500`)
 *   PIS_TRACE_WRITERS, PIS_TRACE_SECONDS, PIS_TRACE_ROUNDS
 *   PIS_TRACE_CPU_PROF=<dir>  runs each API under `node --cpu-prof` (one folder per side) and
 *                     prints where each side's CPU went during the counted rounds, by package
 *                     and by function (start-up and warm-up left out), and per counted write
 *                     the self time each side spent beyond the first side
 */
const WRITERS = Number(process.env['PIS_TRACE_WRITERS'] ?? 16);
const SECONDS = Number(process.env['PIS_TRACE_SECONDS'] ?? 5);
const ROUNDS = Number(process.env['PIS_TRACE_ROUNDS'] ?? 6);
const SIDES = (process.env['PIS_TRACE_SIDES'] ?? 'off,always_off,always_on')
  .split(',')
  .map((side) => side.trim())
  .filter((side) => side !== '');
const PROFILE_DIR = process.env['PIS_TRACE_CPU_PROF'] || null;
/** Every side at once (the default) rather than one after the other. */
const TOGETHER = (process.env['PIS_TRACE_MODE'] ?? 'together') === 'together';
const TOKEN = 'tracing-cost-backoffice-token-0123456789';
const name = `pis_bench_trace_${Date.now()}`;

interface Round {
  writes: number;
  seconds: number;
  cpuTicks: number;
}

interface Side {
  label: string;
  process: ChildProcess;
  baseUrl: string;
  rounds: Round[];
  latenciesMs: number[];
  profileDir: string | null;
  /** When the process was started and when its counted rounds began (performance.now()). */
  startedAt: number;
  measuredFrom: number;
}

/** The OTEL_* variables of a side: none for `off`, else an OTLP exporter and the sampler named. */
function tracingEnv(side: string, sinkUrl: string): Record<string, string> {
  const [tracing = '', ...settings] = side.split('@')[0]!.split('+');
  const extra = Object.fromEntries(
    settings.map((setting) => {
      const at = setting.indexOf('=');
      if (at <= 0) throw new Error(`side ${side}: "+${setting}" is not +VAR=value`);
      return [setting.slice(0, at), setting.slice(at + 1)];
    }),
  );
  if (tracing === 'off') return extra;
  const [sampler = '', arg] = tracing.split(':');
  return {
    OTEL_TRACES_EXPORTER: 'otlp',
    OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf',
    OTEL_EXPORTER_OTLP_ENDPOINT: sinkUrl,
    OTEL_TRACES_SAMPLER: sampler,
    ...(arg === undefined ? {} : { OTEL_TRACES_SAMPLER_ARG: arg }),
    ...extra,
  };
}

async function main(): Promise<void> {
  if (SIDES.length === 0) throw new Error('PIS_TRACE_SIDES names no side');
  await createDatabase(name);
  const sink = await startSink();
  const sides: Side[] = [];
  const loadBefore = loadavg();
  try {
    const env = {
      PATH: process.env['PATH'] ?? '',
      DATABASE_URL: databaseUrl(name),
      BACKOFFICE_TOKEN: TOKEN,
      SECRETS_KEY: Buffer.alloc(32, 7).toString('base64'),
      RATE_LIMIT_RPS: '0',
      LOG_LEVEL: 'warn',
    };
    // One after the other: the first start migrates the database.
    for (const [i, side] of SIDES.entries())
      sides.push(
        await startApi(`${side}${SIDES.indexOf(side) === i ? '' : ` #${i + 1}`}`, {
          ...env,
          ...tracingEnv(side, sink.url),
        }),
      );
    const key = await givenLocationKey(sides[0]!.baseUrl);
    let n = 0;
    const write = async (side: Side, until: number, record: boolean) => {
      while (performance.now() < until) {
        const sent = performance.now();
        const res = await fetch(`${side.baseUrl}/api/provider/v1/reservations`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body: JSON.stringify({
            externalId: `trace-${n++}`,
            status: 'confirmed',
            covers: 2,
            startsAt: '2026-11-21T19:00:00.000Z',
            updatedAt: '2026-11-20T10:00:00.000Z',
          }),
        });
        await res.arrayBuffer();
        if (res.status !== 201) throw new Error(`a write to ${side.label} answered ${res.status}`);
        if (record) side.latenciesMs.push(performance.now() - sent);
      }
    };
    const run = async (side: Side, seconds: number, record: boolean): Promise<Round> => {
      const before = side.latenciesMs.length;
      const ticks = cpuTicks(side.process.pid!);
      const started = performance.now();
      const until = started + seconds * 1_000;
      await Promise.all(Array.from({ length: WRITERS }, () => write(side, until, record)));
      return {
        writes: side.latenciesMs.length - before,
        seconds: (performance.now() - started) / 1_000,
        cpuTicks: cpuTicks(side.process.pid!) - ticks,
      };
    };
    // Warm-up: the JIT, the pools and the SDK's first export, not counted.
    await Promise.all(sides.map((side) => run(side, Math.min(SECONDS, 3), false)));
    for (const side of sides) side.measuredFrom = performance.now();
    for (let round = 0; round < ROUNDS; round++) {
      if (TOGETHER) {
        const results = await Promise.all(sides.map((side) => run(side, SECONDS, true)));
        results.forEach((result, i) => sides[i]!.rounds.push(result));
        continue;
      }
      const order = sides.map((_, i) => sides[(i + round) % sides.length]!);
      for (const side of order) side.rounds.push(await run(side, SECONDS, true));
    }
    const cpuPerWrite = (r: Round) => (r.cpuTicks * 10) / r.writes;
    const report = sides.map((s) => {
      const sorted = [...s.latenciesMs].sort((a, b) => a - b);
      const at = (q: number) =>
        Number(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!.toFixed(1));
      return {
        side: s.label,
        writes: s.latenciesMs.length,
        writesPerSecond: Math.round(median(s.rounds.map((r) => r.writes / r.seconds))),
        p50Ms: at(0.5),
        p99Ms: at(0.99),
        apiCpuMsPerWrite: Number(median(s.rounds.map(cpuPerWrite)).toFixed(3)),
        apiCpuMsPerWriteByRound: s.rounds.map((r) => Number(cpuPerWrite(r).toFixed(3))),
      };
    });
    const off = sides[0]!;
    const overhead = Object.fromEntries(
      sides.slice(1).map((s) => [
        s.label,
        {
          cpuPerWrite: pct(median(s.rounds.map((r, i) => cpuPerWrite(r) / cpuPerWrite(off.rounds[i]!)))),
          throughput: pct(
            median(
              s.rounds.map((r, i) => off.rounds[i]!.writes / off.rounds[i]!.seconds / (r.writes / r.seconds)),
            ),
          ),
          p50: pct(report[sides.indexOf(s)]!.p50Ms / report[0]!.p50Ms),
        },
      ]),
    );
    // Stopped gracefully, so that `--cpu-prof` writes its profiles.
    await Promise.all(sides.map((s) => stopApi(s)));
    const profiles = PROFILE_DIR === null ? undefined : profilesOf(sides);
    console.log(
      JSON.stringify(
        {
          node: process.version,
          writers: WRITERS,
          seconds: SECONDS,
          rounds: ROUNDS,
          mode: TOGETHER ? 'together' : 'alternate',
          loadAverage: { before: loadBefore.map(round2), after: loadavg().map(round2) },
          exportRequests: sink.requests(),
          report,
          overheadAgainst: { [off.label]: overhead },
          ...(profiles === undefined ? {} : { profiles }),
        },
        null,
        2,
      ),
    );
  } finally {
    for (const side of sides) side.process.kill('SIGKILL');
    await sink.close();
    await dropDatabase(name);
  }
}

const round2 = (n: number) => Number(n.toFixed(2));

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/**
 * Where each side's CPU went: the largest packages and functions, as shares of its busy time;
 * and, for every side after the first, what it spent per write beyond the first side, in µs
 * (self time per counted write, by package and by function: the differences that add up to
 * the overhead).
 */
function profilesOf(sides: Side[]) {
  // Only the counted rounds: start-up (module loading, schema compilation) and warm-up left out.
  const found = sides.map((side) =>
    side.profileDir === null
      ? null
      : summarizeProfileDir(side.profileDir, side.measuredFrom - side.startedAt),
  );
  const writes = sides.map((side) => side.rounds.reduce((sum, r) => sum + r.writes, 0));
  const share = (entries: [string, number][]) =>
    Object.fromEntries(entries.map(([k, v]) => [k, `${(v * 100).toFixed(1)}%`]));
  const base = found[0]?.summary;
  const added = (entries: Record<string, number>, baseEntries: Record<string, number>, i: number) => {
    const perWrite = (ms: number, n: number) => (n > 0 ? (ms * 1000) / n : 0);
    const keys = new Set([...Object.keys(entries), ...Object.keys(baseEntries)]);
    const diffs = [...keys].map(
      (k) => [k, perWrite(entries[k] ?? 0, writes[i]!) - perWrite(baseEntries[k] ?? 0, writes[0]!)] as const,
    );
    return Object.fromEntries(
      diffs
        .sort(([, a], [, b]) => Math.abs(b) - Math.abs(a))
        .slice(0, 20)
        .map(([k, us]) => [k, Number(us.toFixed(1))]),
    );
  };
  return Object.fromEntries(
    sides.map((side, i) => {
      const summary = found[i]?.summary;
      if (summary === undefined) return [side.label, null];
      return [
        side.label,
        {
          busyMs: Math.round(summary.busyMs),
          busyUsPerWrite: writes[i]! > 0 ? Math.round((summary.busyMs * 1000) / writes[i]!) : null,
          byPackage: share(top(summary.byCategory, summary.busyMs, 15)),
          byFunction: share(top(summary.byFunction, summary.busyMs, 25)),
          ...(i === 0 || base === undefined
            ? {}
            : {
                addedUsPerWriteByPackage: added(summary.byCategory, base.byCategory, i),
                addedUsPerWriteByFunction: added(summary.byFunction, base.byFunction, i),
              }),
        },
      ];
    }),
  );
}

async function stopApi(side: Side): Promise<void> {
  if (side.process.exitCode !== null) return;
  const exited = new Promise<void>((resolve) => side.process.once('exit', () => resolve()));
  side.process.kill('SIGTERM');
  await Promise.race([exited, new Promise((r) => setTimeout(r, 15_000))]);
}

const pct = (ratio: number) => `${((ratio - 1) * 100).toFixed(1)}%`;

/** utime + stime of a process, in clock ticks (1/100 s on Linux). */
function cpuTicks(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return Number(fields[11]) + Number(fields[12]);
}

async function startApi(label: string, env: Record<string, string>): Promise<Side> {
  const port = await new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
  const profileDir = PROFILE_DIR === null ? null : join(PROFILE_DIR, label.replace(/[^a-z0-9.#_-]+/gi, '_'));
  const profiling = profileDir === null ? [] : ['--cpu-prof', `--cpu-prof-dir=${profileDir}`];
  const bundle = label.split(' ')[0]!.split('@')[1] ?? 'apps/api/dist/main.js';
  const startedAt = performance.now();
  const child = spawn(process.execPath, [...profiling, '--max-semi-space-size=4', bundle], {
    cwd: ROOT,
    env: { ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    const ok = await fetch(`${baseUrl}/readyz`)
      .then((r) => r.ok)
      .catch(() => false);
    if (ok) break;
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`the API (${label}) did not start`);
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    label,
    process: child,
    baseUrl,
    rounds: [],
    latenciesMs: [],
    profileDir,
    startedAt,
    measuredFrom: startedAt,
  };
}

async function givenLocationKey(baseUrl: string): Promise<string> {
  const call = async (path: string, body?: object) => {
    const res = await fetch(`${baseUrl}/api/backoffice/v1${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${path} answered ${res.status}: ${await res.text()}`);
    return (await res.json()) as Record<string, string>;
  };
  const location = await call('/locations', { name: 'Tracing cost', brand: 'bench' });
  return (await call(`/locations/${location['id']}/api-keys`))['key']!;
}

/** An OTLP/HTTP endpoint that takes every export and counts the requests. */
async function startSink(): Promise<{ url: string; requests: () => number; close: () => Promise<void> }> {
  let requests = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      requests++;
      res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests: () => requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
