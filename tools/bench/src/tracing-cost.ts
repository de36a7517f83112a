import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createDatabase, databaseUrl, dropDatabase } from './database';
import { ROOT } from './processes';

/*
 * What tracing costs the write path (docs/decisions/0230-trace-propagation.md): two API
 * processes from the production bundle on one database, one without OTEL_* (no SDK loaded)
 * and one exporting its spans (every one by default; OTLP http/protobuf) to a local sink that
 * answers 200, take reservation writes (POST /reservations, each a transaction with its outbox
 * row) from WRITERS concurrent clients, in alternating rounds of SECONDS, ROUNDS times each
 * side. Alternating in short rounds spreads whatever else the machine does over both sides.
 * Reports writes/s, latency p50/p99 and the API process's CPU per write for each side; the
 * overhead is the traced side's CPU per write over the untraced one's.
 *
 *   node tools/scripts/build-apps.mjs apps/api && pnpm tsx tools/bench/src/tracing-cost.ts
 *   (PIS_TRACE_WRITERS, PIS_TRACE_SECONDS, PIS_TRACE_ROUNDS; PIS_TRACE_SAMPLER and
 *   PIS_TRACE_SAMPLER_ARG for the traced side, e.g. traceidratio 0.1; PIS_TRACE_CONTROL=1 leaves
 *   both sides untraced, to show what the machine's noise alone makes of two equal sides)
 */
const WRITERS = Number(process.env['PIS_TRACE_WRITERS'] ?? 16);
const SECONDS = Number(process.env['PIS_TRACE_SECONDS'] ?? 5);
const ROUNDS = Number(process.env['PIS_TRACE_ROUNDS'] ?? 4);
/** The traced side's sampler: every trace by default (the most it can cost). */
const SAMPLER = process.env['PIS_TRACE_SAMPLER'] ?? 'always_on';
const SAMPLER_ARG = process.env['PIS_TRACE_SAMPLER_ARG'];
const TOKEN = 'tracing-cost-backoffice-token-0123456789';
const name = `pis_bench_trace_${Date.now()}`;

interface Side {
  label: 'tracing off' | 'tracing on';
  process: ChildProcess;
  baseUrl: string;
  writes: number;
  seconds: number;
  cpuTicks: number;
  latenciesMs: number[];
}

async function main(): Promise<void> {
  await createDatabase(name);
  const sink = await startSink();
  const sides: Side[] = [];
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
    sides.push(await startApi('tracing off', env));
    // PIS_TRACE_CONTROL=1: the second process is untraced too, to see the noise between two equal sides.
    const control = process.env['PIS_TRACE_CONTROL'] === '1';
    sides.push(
      await startApi('tracing on', {
        ...env,
        ...(control ? { OTEL_SDK_DISABLED: 'true' } : {}),
        OTEL_TRACES_EXPORTER: 'otlp',
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf',
        OTEL_EXPORTER_OTLP_ENDPOINT: sink.url,
        OTEL_TRACES_SAMPLER: SAMPLER,
        ...(SAMPLER_ARG === undefined ? {} : { OTEL_TRACES_SAMPLER_ARG: SAMPLER_ARG }),
      }),
    );
    const key = await givenLocationKey(sides[0]!.baseUrl);
    let n = 0;
    for (let round = 0; round < ROUNDS; round++) {
      for (const side of round % 2 === 0 ? sides : [...sides].reverse()) {
        const ticks = cpuTicks(side.process.pid!);
        const started = performance.now();
        const until = started + SECONDS * 1_000;
        await Promise.all(
          Array.from({ length: WRITERS }, async () => {
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
              if (res.status !== 201) throw new Error(`a write answered ${res.status}`);
              side.latenciesMs.push(performance.now() - sent);
              side.writes++;
            }
          }),
        );
        side.seconds += (performance.now() - started) / 1_000;
        side.cpuTicks += cpuTicks(side.process.pid!) - ticks;
      }
    }
    const report = sides.map((s) => {
      const sorted = [...s.latenciesMs].sort((a, b) => a - b);
      const at = (q: number) =>
        Number(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!.toFixed(1));
      return {
        side: s.label,
        writes: s.writes,
        writesPerSecond: Math.round(s.writes / s.seconds),
        p50Ms: at(0.5),
        p99Ms: at(0.99),
        apiCpuMsPerWrite: Number(((s.cpuTicks * 10) / s.writes).toFixed(3)),
      };
    });
    const [off, on] = report;
    console.log(
      JSON.stringify(
        {
          writers: WRITERS,
          seconds: SECONDS,
          rounds: ROUNDS,
          control: process.env['PIS_TRACE_CONTROL'] === '1',
          sampler: SAMPLER_ARG === undefined ? SAMPLER : `${SAMPLER} ${SAMPLER_ARG}`,
          exportRequests: sink.requests(),
          report,
          overhead: {
            cpuPerWrite: pct(on!.apiCpuMsPerWrite / off!.apiCpuMsPerWrite),
            throughput: pct(off!.writesPerSecond / on!.writesPerSecond),
            p50: pct(on!.p50Ms / off!.p50Ms),
          },
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

const pct = (ratio: number) => `${((ratio - 1) * 100).toFixed(1)}%`;

/** utime + stime of a process, in clock ticks (1/100 s on Linux). */
function cpuTicks(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return Number(fields[11]) + Number(fields[12]);
}

async function startApi(label: Side['label'], env: Record<string, string>): Promise<Side> {
  const port = await new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
  const child = spawn(process.execPath, ['--max-semi-space-size=4', 'apps/api/dist/main.js'], {
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
  return { label, process: child, baseUrl, writes: 0, seconds: 0, cpuTicks: 0, latenciesMs: [] };
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
