import { randomUUID } from 'node:crypto';
import { Pool } from 'pg';
import { call, PROVIDER } from '../api-client';
import { buckets, round, summarize, type Sample } from '../report/stats';
import { measure, type ScenarioContext, type ScenarioResult } from '../scenario';
import { provisionLocation, type BenchLocation } from '../seed';
import { BURST_SQL, ONE_SQL } from './webhook-pipeline';
import { WebhookReceiver } from './webhook-receiver';

const NEIGHBOURS = 100;
const RATE = 200;
const HANGING_BACKLOG = 2_000;

/** The 100 neighbours and the one whose endpoint hangs, provisioned through the API. */
export async function provisionNeighbours(baseUrl: string): Promise<BenchLocation[]> {
  const locations: BenchLocation[] = [];
  for (let i = 0; i <= NEIGHBOURS; i++)
    locations.push(await provisionLocation(baseUrl, `Bench neighbour ${i}`, 1));
  return locations;
}

/**
 * One location's endpoint never answers (every attempt runs into the timeout) while 100
 * other locations receive events at 200/s in turn: their commit-to-receipt latency, first
 * without the hanging endpoint, then with a backlog of 2,000 of its deliveries pending.
 */
export async function noisyNeighbour(
  ctx: ScenarioContext,
  locations: BenchLocation[],
): Promise<ScenarioResult> {
  const [hanging, ...neighbours] = locations;
  const fast = new WebhookReceiver();
  const stuck = new WebhookReceiver();
  const fastUrl = await fast.start();
  const stuckUrl = await stuck.start();
  stuck.hold();
  const pool = new Pool({ connectionString: ctx.databaseUrl, max: 8, application_name: 'pis-bench' });
  try {
    for (const n of neighbours)
      await call(ctx.services.baseUrl, n.key, 'PUT', `${PROVIDER}/webhook-endpoint`, { url: fastUrl });
    await call(ctx.services.baseUrl, hanging!.key, 'PUT', `${PROVIDER}/webhook-endpoint`, { url: stuckUrl });
    const paced = async (seconds: number) => {
      const commits = new Map<string, number>();
      const total = RATE * seconds;
      const started = Date.now();
      const inFlight: Promise<void>[] = [];
      for (let sent = 0; sent < total;) {
        while (sent < total && started + (sent * 1000) / RATE <= Date.now()) {
          const location = neighbours[sent % neighbours.length]!;
          sent++;
          const id = randomUUID();
          const at = new Date().toISOString();
          const data = {
            tableId: location.tableIds[0],
            orderId: randomUUID(),
            reservationExternalId: null,
            covers: 2,
            occurredAt: at,
          };
          inFlight.push(
            pool.query(ONE_SQL, [location.locationId, id, at, JSON.stringify(data)]).then(() => {
              commits.set(id, Date.now());
            }),
          );
        }
        await new Promise((resolve) => setTimeout(resolve, 2));
      }
      await Promise.all(inFlight);
      await fast.all([...commits.keys()], 120_000);
      return [...commits].map(([id, at]): Sample => [at - started, fast.received.get(id)! - at]);
    };

    // Every neighbour's first delivery (its endpoint read, its first connection) before either
    // measurement, so that both compare steady states.
    ctx.log(`noisy-neighbour: warm-up, ${NEIGHBOURS} locations for 2 s`);
    await paced(2);
    ctx.log(`noisy-neighbour: ${NEIGHBOURS} locations at ${RATE} events/s, alone`);
    const alone = await measure(ctx, () => paced(ctx.durationS));
    ctx.log(
      `noisy-neighbour: the same beside ${HANGING_BACKLOG.toLocaleString('en')} deliveries to an endpoint that never answers`,
    );
    for (let sent = 0; sent < HANGING_BACKLOG; sent += 500) {
      await pool.query(BURST_SQL, [hanging!.locationId, hanging!.tableIds[0], 500]);
    }
    const beside = await measure(ctx, () => paced(ctx.durationS));
    const [a, b] = [summarize(alone.value.map(([, l]) => l)), summarize(beside.value.map(([, l]) => l))];
    return {
      name: 'webhook-noisy-neighbour',
      apiWorkers: ctx.services.apiWorkers,
      description: `${NEIGHBOURS} locations receiving events at ${RATE}/s in turn, alone and then beside a location whose endpoint never answers (${HANGING_BACKLOG.toLocaleString('en')} of its deliveries pending, each attempt running into the timeout): commit-to-receipt latency of the ${NEIGHBOURS}`,
      load: null,
      usage: beside.usage,
      waits: beside.waits,
      metrics: {
        'alone: commit-to-receipt p50 / p99 ms': `${a.p50} / ${a.p99}`,
        'beside the hanging endpoint: p50 / p99 ms': `${b.p50} / ${b.p99}`,
        'p99 beside / p99 alone': round(b.p99 / a.p99, 2),
        'attempts the hanging endpoint received': stuck.received.size + stuck.duplicates,
      },
      timeline: buckets(beside.value),
      notes: ['Target (decision 0081): the p99 beside the hanging endpoint stays under twice the p99 alone.'],
      baselines: {},
    };
  } finally {
    stuck.release();
    await pool.end();
    await Promise.all([fast.stop(), stuck.stop()]);
  }
}
