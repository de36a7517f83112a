import { randomUUID } from 'node:crypto';
import { Pool } from 'pg';
import { call, PROVIDER } from '../api-client';
import { deleteRedisPrefix } from '../database';
import { buckets, round, summarize, type Sample } from '../report/stats';
import { measure, type Measured, type ScenarioContext, type ScenarioResult } from '../scenario';
import type { BenchLocation } from '../seed';
import { WebhookReceiver } from './webhook-receiver';

/** The channel the relay LISTENs on (`OUTBOX_CHANNEL` of the persistence package); the payload is the location id. */
const OUTBOX_CHANNEL = 'outbox_events';
const BURST_TX = 500;
const PACED_RATE = 500;

export interface WebhookOptions {
  burstEvents: number;
  /** The worker's Redis key prefix: the Redis-lost run deletes everything under it. */
  queuePrefix: string;
}

/** The delivery lease at the default `WEBHOOK_TIMEOUT_MS` (10 s): 2 x timeout + 5 s. */
const LEASE_MS = 25_000;

/**
 * Events exactly as the outbox adapter commits them: bump the location's event sequence
 * (row lock until commit), insert the outbox rows, NOTIFY the relay, commit. The burst
 * commits `count` events per transaction; the paced run one event per statement (a single
 * statement is its own transaction).
 */
export const BURST_SQL = `
  WITH seq AS (
    UPDATE locations SET event_sequence = event_sequence + $3 WHERE id = $1 RETURNING event_sequence
  ), inserted AS (
    INSERT INTO outbox_events (id, location_id, sequence, type, occurred_at, data)
    SELECT gen_random_uuid(), $1, seq.event_sequence - $3 + n, 'table.occupied', clock_timestamp(),
           jsonb_build_object('tableId', $2::text, 'orderId', gen_random_uuid(), 'reservationExternalId', NULL,
                              'covers', 2, 'occurredAt',
                              to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
      FROM seq, generate_series(1, $3::int) AS n
    RETURNING id
  )
  SELECT (SELECT array_agg(id) FROM inserted) AS ids, pg_notify('${OUTBOX_CHANNEL}', $1::text)`;

export const ONE_SQL = `
  WITH seq AS (
    UPDATE locations SET event_sequence = event_sequence + 1 WHERE id = $1 RETURNING event_sequence
  ), inserted AS (
    INSERT INTO outbox_events (id, location_id, sequence, type, occurred_at, data)
    SELECT $2, $1, seq.event_sequence, 'table.occupied', $3, $4::jsonb FROM seq
  )
  SELECT pg_notify('${OUTBOX_CHANNEL}', $1::text)`;

/**
 * The webhook pipeline from commit to a loopback receiver through the worker deployment
 * (relay on LISTEN/NOTIFY, BullMQ in Redis, signing, delivery, attempt records):
 * (a) sustained rate: a burst of N committed events, deliveries per second until the last
 * arrived; (b) commit-to-receipt latency with events committed one by one at 500 a second.
 */
export async function webhookPipeline(
  ctx: ScenarioContext,
  location: BenchLocation,
  options: WebhookOptions,
): Promise<ScenarioResult[]> {
  const receiver = new WebhookReceiver();
  const url = await receiver.start();
  await call(ctx.services.baseUrl, location.key, 'PUT', `${PROVIDER}/webhook-endpoint`, { url });
  const pool = new Pool({ connectionString: ctx.databaseUrl, max: 8, application_name: 'pis-bench' });
  const tableId = location.tableIds[0]!;
  const burst = async (count: number) => {
    const ids: string[] = [];
    for (let sent = 0; sent < count; sent += BURST_TX) {
      const { rows } = await pool.query<{ ids: string[] }>(BURST_SQL, [
        location.locationId,
        tableId,
        Math.min(BURST_TX, count - sent),
      ]);
      ids.push(...rows[0]!.ids);
    }
    return ids;
  };
  try {
    ctx.log('webhook-pipeline: warm-up (200 events)');
    await receiver.all(await burst(200), 60_000);

    ctx.log(`webhook-pipeline: burst of ${options.burstEvents.toLocaleString('en')} events`);
    const a = await measure(ctx, async () => {
      const started = Date.now();
      const ids = await burst(options.burstEvents);
      const committedMs = Date.now() - started;
      await receiver.all(ids, 300_000);
      const receipts = ids.map((id) => receiver.received.get(id)!).sort((x, y) => x - y);
      return { started, committedMs, receipts };
    });
    const { started, committedMs, receipts } = a.value;
    const drainedMs = receipts[receipts.length - 1]! - started;
    // The middle 80 % of the receipts: the pipeline's steady rate, without start-up and tail.
    const lo = receipts[Math.floor(receipts.length * 0.1)]!;
    const hi = receipts[Math.floor(receipts.length * 0.9)]!;
    const steady = hi > lo ? round(((receipts.length * 0.8) / (hi - lo)) * 1000, 0) : Number.NaN;
    const sustained = round((options.burstEvents / drainedMs) * 1000, 0);
    const burstSamples: Sample[] = receipts.map((at) => [at - started, at - started]);
    const burstDuplicates = receiver.duplicates;

    ctx.log(`webhook-pipeline: ${PACED_RATE} events/s for ${ctx.durationS} s`);
    const b = await measure(ctx, () => paced(pool, location.locationId, tableId, ctx.durationS));
    await receiver.all([...b.value.commits.keys()], 120_000);
    const samples: Sample[] = [];
    for (const [id, committedAt] of b.value.commits) {
      samples.push([committedAt - b.value.started, receiver.received.get(id)! - committedAt]);
    }
    const latency = summarize(samples.map(([, l]) => l));
    const stages = await stageBreakdown(pool, [...b.value.commits.keys()], receiver.received);

    ctx.log(`webhook-pipeline: Redis loses ${options.burstEvents.toLocaleString('en')} waiting jobs`);
    const c = await measure(ctx, () => redisLost(pool, receiver, burst, location.locationId, options));
    const lostTarget = round(LEASE_MS + (c.value.lost / sustained) * 1000, 0);

    const common = {
      // The services of this pass ran it, but the API takes no part: events are committed in SQL.
      apiWorkers: ctx.services.apiWorkers,
      load: null,
      baselines: {},
    };
    return [
      {
        ...common,
        name: 'webhook-pipeline-burst',
        description: `a burst of ${options.burstEvents.toLocaleString('en')} committed table events (transactions of ${BURST_TX}) delivered to a loopback receiver by the worker`,
        usage: a.usage,
        waits: a.waits,
        metrics: {
          'events committed in ms': committedMs,
          'last delivery after ms': drainedMs,
          'deliveries/s (all, from the first commit)': sustained,
          'deliveries/s (steady: middle 80 % of receipts)': steady,
          'duplicate deliveries': burstDuplicates,
          ...cpuPerDelivery(a, options.burstEvents),
        },
        timeline: buckets(burstSamples, 1000),
        bucketMs: 1000,
        notes: [
          'The chart shows, per second of the run, when the deliveries arrived (y = their arrival time since the first commit): a straight line is a steady rate.',
        ],
      },
      {
        ...common,
        name: 'webhook-pipeline-latency',
        description: `table events committed one per transaction at ${PACED_RATE}/s for ${ctx.durationS} s; commit-to-receipt latency at the loopback receiver`,
        usage: b.usage,
        waits: b.waits,
        metrics: {
          'events committed': b.value.commits.size,
          'commit rate achieved /s': round(b.value.commits.size / ctx.durationS, 0),
          'commit-to-receipt p50 ms': latency.p50,
          'commit-to-receipt p90 ms': latency.p90,
          'commit-to-receipt p99 ms': latency.p99,
          'commit-to-receipt max ms': latency.max,
          ...stages,
          ...cpuPerDelivery(b, b.value.commits.size),
        },
        timeline: buckets(samples),
        notes: [
          'Commit time is when the committing statement returned to the benchmark; receipt is when the receiver saw the request (same clock).',
        ],
      },
      {
        ...common,
        name: 'webhook-redis-lost',
        description: `${options.burstEvents.toLocaleString('en')} deliveries queued in Redis behind a stalled receiver, then every key of the queue's prefix deleted (what a Redis restarted without persistence leaves) and the receiver answering again: time from the loss to the last receipt`,
        usage: c.usage,
        waits: c.waits,
        metrics: {
          'jobs lost (queued, not yet received)': c.value.lost,
          'Redis keys deleted': c.value.keys,
          'last delivery after the loss, ms': c.value.drainedMs,
          'target: 1 lease + lost / burst rate, ms': lostTarget,
          'duplicate deliveries': c.value.duplicates,
        },
        timeline: buckets(c.value.samples, 1000),
        bucketMs: 1000,
        notes: [
          `Target (decision 0050): one lease (${LEASE_MS} ms at the default timeout) plus the lost jobs at the burst's delivery rate.`,
        ],
      },
    ];
  } finally {
    await pool.end();
    await receiver.stop();
  }
}

/**
 * CPU per delivery, in ms: the worker's, Redis's and PostgreSQL's, the latter both as this
 * database's backends (what the pipeline asked of it) and as the whole server (with its WAL
 * writer and checkpointer, and whatever other databases of a shared server did meanwhile).
 */
export function cpuPerDelivery(run: Measured<unknown>, deliveries: number): Record<string, number | string> {
  const seconds = run.usage.seconds;
  const ms = (cores: number | undefined) => round(((cores ?? 0) * seconds * 1000) / deliveries, 3);
  const worker = ms(run.usage.roles['worker']?.cpuCores);
  const redis = ms(run.usage.roles['redis']?.cpuCores);
  const database = ms(run.waits?.databaseCores);
  const server = ms(run.usage.roles['postgres']?.cpuCores);
  return {
    'CPU per delivery, ms: worker / Redis / PostgreSQL (this database) / PostgreSQL (server)': `${worker} / ${redis} / ${database} / ${server}`,
    'CPU per delivery, ms: worker + PostgreSQL (this database) + Redis': round(worker + database + redis, 3),
    'CPU per delivery, ms: worker + PostgreSQL (server) + Redis': round(worker + server + redis, 3),
  };
}

/**
 * Stalls the receiver, commits the burst and waits until every delivery of it is queued in
 * Redis, deletes the queue's keys, lets the receiver answer again, and times the drain.
 */
async function redisLost(
  pool: Pool,
  receiver: WebhookReceiver,
  burst: (count: number) => Promise<string[]>,
  locationId: string,
  options: WebhookOptions,
) {
  const duplicatesBefore = receiver.duplicates;
  receiver.hold();
  const ids = await burst(options.burstEvents);
  const deadline = Date.now() + 120_000;
  for (;;) {
    const { rows } = await pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM webhook_deliveries
        WHERE location_id = $1 AND event_id = ANY($2::uuid[]) AND queued_generation = generation`,
      [locationId, ids],
    );
    if (rows[0]!.n === ids.length) break;
    if (Date.now() > deadline) throw new Error(`only ${rows[0]!.n} of ${ids.length} deliveries were queued`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const keys = await deleteRedisPrefix(options.queuePrefix);
  const lostAt = Date.now();
  const lost = ids.filter((id) => !receiver.received.has(id)).length;
  receiver.release();
  await receiver.all(ids, 600_000);
  const receipts = ids.map((id) => receiver.received.get(id)!).filter((at) => at >= lostAt);
  const drainedMs = Math.max(...receipts) - lostAt;
  const samples: Sample[] = receipts.map((at) => [at - lostAt, at - lostAt]);
  return { lost, keys, drainedMs, samples, duplicates: receiver.duplicates - duplicatesBefore };
}

/** Commits one event every 1000/PACED_RATE ms; notes each event's commit time. */
async function paced(pool: Pool, locationId: string, tableId: string, durationS: number) {
  const commits = new Map<string, number>();
  const interval = 1000 / PACED_RATE;
  const total = Math.floor(PACED_RATE * durationS);
  const started = Date.now();
  const inFlight: Promise<void>[] = [];
  let sent = 0;
  while (sent < total) {
    const now = Date.now();
    while (sent < total && started + sent * interval <= now) {
      sent++;
      const id = randomUUID();
      const at = new Date().toISOString();
      const data = { tableId, orderId: randomUUID(), reservationExternalId: null, covers: 2, occurredAt: at };
      inFlight.push(
        pool.query(ONE_SQL, [locationId, id, at, JSON.stringify(data)]).then(() => {
          commits.set(id, Date.now());
        }),
      );
    }
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, started + sent * interval - Date.now())));
  }
  await Promise.all(inFlight);
  return { commits, started };
}

/**
 * Where the latency goes, from PostgreSQL's records of the paced events: commit to relay
 * (outbox row to delivery row), relay to the first attempt (queue), attempt start to receipt.
 */
async function stageBreakdown(
  pool: Pool,
  ids: string[],
  received: Map<string, number>,
): Promise<Record<string, string>> {
  const { rows } = await pool.query<{
    id: string;
    created: string;
    relayed: string;
    attempted: string | null;
  }>(
    `SELECT e.id, (extract(epoch FROM e.created_at) * 1000)::float8 AS created,
            (extract(epoch FROM e.relayed_at) * 1000)::float8 AS relayed,
            (SELECT (extract(epoch FROM min(a.attempted_at)) * 1000)::float8
               FROM webhook_deliveries d JOIN webhook_attempts a ON a.delivery_id = d.id
              WHERE d.event_id = e.id) AS attempted
       FROM outbox_events e WHERE e.id = ANY($1::uuid[])`,
    [ids],
  );
  const relay: number[] = [];
  const queue: number[] = [];
  const send: number[] = [];
  for (const row of rows) {
    if (row.attempted === null) continue;
    relay.push(Number(row.relayed) - Number(row.created));
    queue.push(Number(row.attempted) - Number(row.relayed));
    send.push(received.get(row.id)! - Number(row.attempted));
  }
  const [r, q, s] = [summarize(relay), summarize(queue), summarize(send)];
  return {
    'stage: outbox row to relayed, p50 / p99 ms': `${r.p50} / ${r.p99}`,
    'stage: relayed to first attempt, p50 / p99 ms': `${q.p50} / ${q.p99}`,
    'stage: attempt start to receipt, p50 / p99 ms': `${s.p50} / ${s.p99}`,
  };
}
