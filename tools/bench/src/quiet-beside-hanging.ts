import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { BACKOFFICE, BACKOFFICE_TOKEN, call, PROVIDER } from './api-client';
import { createDatabase, databaseUrl, deleteRedisPrefix, dropDatabase, REDIS_URL } from './database';
import {
  freePort,
  killAllGroupsNow,
  sleep,
  startGroup,
  stopAllGroups,
  waitFor,
  type GroupProcess,
} from './processes';
import { summarize } from './report/stats';
import { buildApps } from './services';
import { provisionLocation, type BenchLocation } from './seed';

/*
 * A quiet location beside a hanging endpoint, in each deployment, as an operator would try
 * it: `pnpm tsx tools/bench/src/quiet-beside-hanging.ts [samples] [deployments]` (default 200, and
 * every one of postgres-in-process,embedded,postgres-worker). One location's endpoint
 * answers only after the delivery timeout (WEBHOOK_TIMEOUT_MS=3000) with a backlog of about
 * 450 events, while a quiet location opens and closes walk-in orders one at a time and its
 * receiver times each `table.occupied` from the answer to the open to its receipt: first
 * alone, then beside the hanging endpoint. Prints one table row per deployment.
 */

type Deployment = 'postgres-in-process' | 'embedded' | 'postgres-worker';
const DEPLOYMENTS: Deployment[] = ['postgres-in-process', 'embedded', 'postgres-worker'];
const TIMEOUT_MS = 3_000;
/** Walk-ins opened and closed by the hanging location: three events each (occupied, closed, freed). */
const BACKLOG_ORDERS = 150;

const log = (message: string) =>
  process.stdout.write(`[quiet ${new Date().toISOString().slice(11, 19)}] ${message}\n`);

/** Notes when the `table.occupied` of each order arrived; the hanging one never answers in time. */
class Receiver {
  readonly occupied = new Map<string, number>();
  requests = 0;
  private server: Server | null = null;
  constructor(private readonly hangs: boolean) {}

  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const at = Date.now();
        this.requests++;
        const body = JSON.parse(Buffer.concat(chunks).toString()) as {
          type: string;
          data: { orderId?: string };
        };
        if (body.type === 'table.occupied' && body.data.orderId && !this.occupied.has(body.data.orderId))
          this.occupied.set(body.data.orderId, at);
        if (this.hangs) setTimeout(() => res.writeHead(204).end(), 2 * TIMEOUT_MS).unref();
        else res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hooks`;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise((resolve) => this.server?.close(resolve));
  }
}

interface Row {
  deployment: Deployment;
  alone: { p50: number; p99: number };
  beside: { p50: number; p99: number };
  hangingAttempts: number;
}

async function measure(deployment: Deployment, samples: number, stamp: string): Promise<Row> {
  const database = `pis_bench_quiet_${stamp}`;
  const prefix = `pis_bench_quiet_${stamp}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'pis-quiet-'));
  const port = await freePort();
  const env: Record<string, string> = {
    BACKOFFICE_TOKEN,
    PORT: String(port),
    API_WORKERS: '1',
    RATE_LIMIT_RPS: '0',
    LOG_LEVEL: 'warn',
    WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
    WEBHOOK_ALLOW_INSECURE_URLS: 'true',
    WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS),
    WEBHOOK_QUEUE_PREFIX: prefix,
    WORKER_METRICS_PORT: '0',
    DATA_DIR: dataDir,
  };
  if (deployment !== 'embedded') {
    await createDatabase(database);
    env['DATABASE_URL'] = databaseUrl(database);
  }
  if (deployment === 'postgres-worker') env['REDIS_URL'] = REDIS_URL;
  const processes: GroupProcess[] = [];
  const quiet = new Receiver(false);
  const hanging = new Receiver(true);
  try {
    const api = startGroup(`api (${deployment})`, 'apps/api/dist/main.js', { env });
    processes.push(api);
    const base = `http://127.0.0.1:${port}`;
    await waitFor(
      'the API',
      async () => (await fetch(`${base}/readyz`)).ok,
      90_000,
      () => (api.exited() ? api.output() : null),
    );
    if (deployment === 'postgres-worker') {
      processes.push(startGroup('worker', 'apps/worker/dist/main.js', { env }));
      await sleep(2_000);
    }
    const [calm, stuck] = [
      await provisionLocation(base, 'Quiet location', 1),
      await provisionLocation(base, 'Hanging location', 1),
    ];
    await call(base, calm.key, 'PUT', `${PROVIDER}/webhook-endpoint`, { url: await quiet.start() });
    await call(base, stuck.key, 'PUT', `${PROVIDER}/webhook-endpoint`, { url: await hanging.start() });

    const ops = (l: BenchLocation) => `${BACKOFFICE}/locations/${l.locationId}/orders`;
    const cycle = async (l: BenchLocation): Promise<string> => {
      const order = await call<{ id: string }>(base, BACKOFFICE_TOKEN, 'POST', ops(l), {
        tableIds: [l.tableIds[0]],
        covers: 2,
      });
      return order.id;
    };
    const close = (l: BenchLocation, orderId: string) =>
      call(base, BACKOFFICE_TOKEN, 'POST', `${ops(l)}/${orderId}/close`);
    /** Opens and closes `n` orders one at a time; answers each open's answer-to-receipt ms. */
    const timed = async (n: number): Promise<number[]> => {
      const latencies: number[] = [];
      for (let i = 0; i < n; i++) {
        const orderId = await cycle(calm);
        const openedAt = Date.now();
        await waitFor('the quiet table.occupied', async () => quiet.occupied.has(orderId), 60_000);
        latencies.push(quiet.occupied.get(orderId)! - openedAt);
        await close(calm, orderId);
      }
      return latencies;
    };

    await timed(10);
    log(`${deployment}: ${samples} quiet orders alone`);
    const alone = await timed(samples);
    log(`${deployment}: ${BACKLOG_ORDERS * 3} events to the hanging endpoint`);
    for (let i = 0; i < BACKLOG_ORDERS; i++) await close(stuck, await cycle(stuck));
    log(`${deployment}: ${samples} quiet orders beside it`);
    const beside = await timed(samples);
    const [a, b] = [summarize(alone), summarize(beside)];
    return {
      deployment,
      alone: { p50: a.p50, p99: a.p99 },
      beside: { p50: b.p50, p99: b.p99 },
      hangingAttempts: hanging.requests,
    };
  } finally {
    await Promise.all(processes.map((p) => p.stop()));
    await Promise.all([quiet.stop(), hanging.stop()]);
    if (deployment !== 'embedded') await dropDatabase(database);
    if (deployment === 'postgres-worker') await deleteRedisPrefix(prefix);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const samples = Number(process.argv[2] ?? 200);
  const stamp = new Date().toISOString().replace(/[-:]/g, '').replace(/\..*/, '').replace('T', '_');
  process.on('SIGINT', () => void stopAllGroups().finally(() => process.exit(130)));
  process.on('exit', killAllGroupsNow);
  buildApps();
  const rows: Row[] = [];
  const only = process.argv[3]?.split(',');
  for (const deployment of DEPLOYMENTS.filter((d) => only === undefined || only.includes(d))) {
    const load = loadavg()[0]!.toFixed(2);
    const row = await measure(deployment, samples, stamp);
    rows.push(row);
    log(`${deployment} (load ${load}): ${JSON.stringify(row)}`);
  }
  process.stdout.write(
    [
      '| deployment | quiet location alone, p50 / p99 | beside the hanging endpoint, p50 / p99 |',
      '|---|---|---|',
      ...rows.map(
        (r) =>
          `| ${r.deployment} | ${r.alone.p50} / ${r.alone.p99} ms | ${r.beside.p50} / ${r.beside.p99} ms |`,
      ),
    ].join('\n') + '\n',
  );
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
