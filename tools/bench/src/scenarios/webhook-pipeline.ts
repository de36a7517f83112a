import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Pool, type PoolClient } from 'pg';
import { OUTBOX_CHANNEL } from '@pis/persistence';
import { call } from '../env';
import { sampled, type ScenarioContext, type ScenarioResult } from '../scenario';
import { buckets, round, summarize } from '../report/stats';
import type { BenchLocation } from '../seed';

const BURST = 20_000;
const BURST_TX = 200;
const PACED_RATE = 500;
const TICK_MS = 10;

/** A loopback receiver that answers 204 and notes when each `webhook-id` first arrived. */
class Receiver {
  readonly received = new Map<string, number>();
  private server: Server | null = null;
  private waiters: (() => void)[] = [];

  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      const id = String(req.headers['webhook-id']);
      if (!this.received.has(id)) this.received.set(id, Date.now());
      req.resume();
      req.on('end', () => res.writeHead(204).end());
      this.waiters.forEach((w) => w());
    });
    this.server.keepAliveTimeout = 65_000;
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hooks`;
  }

  /** Resolves once every id has arrived, or rejects after `timeoutMs`. */
  async all(ids: readonly string[], timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (ids.some((id) => !this.received.has(id))) {
      if (Date.now() > deadline) {
        const missing = ids.filter((id) => !this.received.has(id)).length;
        throw new Error(`${missing} of ${ids.length} events did not arrive within ${timeoutMs} ms`);
      }
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 100);
      });
      this.waiters = [];
    }
  }

  async stop(): Promise<void> {
    await new Promise((resolve) => this.server?.close(resolve));
    this.server?.closeAllConnections();
  }
}

/**
 * Commits `count` table.occupied events for the location exactly as the outbox adapter does
 * (sequence from the location row, rows, NOTIFY, in one transaction). Answers their ids and
 * the moment the commit returned.
 */
async function commitEvents(client: PoolClient, locationId: string, tableId: string, count: number) {
  await client.query('BEGIN');
  const bumped = await client.query<{ event_sequence: string }>(
    'UPDATE locations SET event_sequence = event_sequence + $2 WHERE id = $1 RETURNING event_sequence',
    [locationId, count],
  );
  const first = Number(bumped.rows[0]!.event_sequence) - count;
  const rows = await client.query<{ id: string }>(
    `INSERT INTO outbox_events (id, location_id, sequence, type, occurred_at, data)
     SELECT gen_random_uuid(), $1, $2::bigint + n, 'table.occupied', clock_timestamp(),
            jsonb_build_object('tableId', $3::text, 'orderId', gen_random_uuid(), 'reservationExternalId', NULL,
                               'covers', 2, 'occurredAt', to_char(clock_timestamp() AT TIME ZONE 'UTC',
                               'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
       FROM generate_series(1, $4::int) AS n RETURNING id`,
    [locationId, first, tableId, count],
  );
  await client.query('SELECT pg_notify($1, $2)', [OUTBOX_CHANNEL, locationId]);
  await client.query('COMMIT');
  return { ids: rows.rows.map((r) => r.id), committedAt: Date.now() };
}

/**
 * The webhook pipeline from commit to a loopback receiver, through the worker deployment
 * (relay on LISTEN/NOTIFY, BullMQ, delivery with signing and attempt records):
 * (a) the sustained rate: a burst of 20,000 committed events, deliveries per second until the
 * last one arrived; (b) commit-to-receipt latency with events committed at 500 a second.
 */
export async function webhookPipeline(
  ctx: ScenarioContext,
  location: BenchLocation,
): Promise<ScenarioResult> {
  const receiver = new Receiver();
  const url = await receiver.start();
  await call(ctx.services.baseUrl, location.key, 'PUT', '/api/provider/v1/webhook-endpoint', { url });
  const pool = new Pool({ connectionString: ctx.databaseUrl, max: 4 });
  const tableId = location.tableIds[0]!;
  try {
    const { value, resources } = await sampled(ctx.services, async () => {
      // (a) burst
      const client = await pool.connect();
      const burstIds: string[] = [];
      const started = Date.now();
      try {
        for (let sent = 0; sent < BURST; sent += BURST_TX) {
          burstIds.push(...(await commitEvents(client, location.locationId, tableId, BURST_TX)).ids);
        }
      } finally {
        client.release();
      }
      const committedIn = Date.now() - started;
      await receiver.all(burstIds, 180_000);
      const drainedIn = Math.max(...burstIds.map((id) => receiver.received.get(id)!)) - started;

      // (b) paced
      const commits = new Map<string, number>();
      const perTick = (PACED_RATE * TICK_MS) / 1000;
      const pacedStart = Date.now();
      const inFlight: Promise<void>[] = [];
      while (Date.now() - pacedStart < ctx.durationS * 1000) {
        const tickAt = pacedStart + inFlight.length * TICK_MS;
        inFlight.push(
          (async () => {
            const c = await pool.connect();
            try {
              const { ids, committedAt } = await commitEvents(c, location.locationId, tableId, perTick);
              ids.forEach((id) => commits.set(id, committedAt));
            } finally {
              c.release();
            }
          })(),
        );
        await new Promise((r) => setTimeout(r, Math.max(0, tickAt + TICK_MS - Date.now())));
      }
      await Promise.all(inFlight);
      const pacedIds = [...commits.keys()];
      await receiver.all(pacedIds, 60_000);
      const samples = pacedIds.map(
        (id) =>
          [commits.get(id)! - pacedStart, receiver.received.get(id)! - commits.get(id)!] as [number, number],
      );
      return { committedIn, drainedIn, pacedRate: round(pacedIds.length / ctx.durationS, 0), samples };
    });
    const latency = summarize(value.samples.map(([, l]) => l));
    return {
      name: 'webhook-pipeline',
      description: 'committed outbox events to a loopback receiver through relay, BullMQ and the worker',
      load: null,
      resources,
      metrics: {
        'burst events': BURST,
        'burst committed in ms': value.committedIn,
        'burst delivered in ms': value.drainedIn,
        'deliveries per second (burst)': round((BURST * 1000) / value.drainedIn, 0),
        'paced events per second': value.pacedRate,
        'commit-to-receipt p50 ms': latency.p50,
        'commit-to-receipt p90 ms': latency.p90,
        'commit-to-receipt p99 ms': latency.p99,
        'commit-to-receipt max ms': latency.max,
      },
      timeline: buckets(value.samples),
      notes: [
        'every delivery was received (the run waits for each webhook-id); receipts are not verified here, the test suite verifies signatures',
      ],
    };
  } finally {
    await pool.end();
    await receiver.stop();
  }
}
