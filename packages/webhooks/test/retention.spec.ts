import { Instant } from '@pis/domain';
import { ManualClock } from '@pis/testing';
import pino from 'pino';
import { RetentionLoop } from '../src/retention/retention-loop';
import {
  appendEvents,
  deliveries,
  givenEndpoint,
  givenLocation,
  occupiedEvents,
  openHarness,
  relayAll,
  type Harness,
} from './support/harness';

/**
 * Retention on PostgreSQL with a controlled clock: a one-day retention, the clock put one day
 * after a cut between two groups of events, so exactly the older group is past retention.
 */
let h: Harness;
beforeAll(async () => {
  h = await openHarness();
});
afterAll(async () => {
  await h?.close();
});

const DAY_MS = 86_400_000;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function count(sql: string, params: unknown[]): Promise<number> {
  const [row] = await h.db.dataSource.query(sql, params);
  return Number(row.n);
}

/** Records one failed attempt on each of the location's deliveries, as the sender would. */
async function attemptEach(locationId: string): Promise<void> {
  const mine = await deliveries(h, locationId);
  for (const d of mine) {
    await h.db.dataSource.query(
      `INSERT INTO webhook_attempts (delivery_id, attempted_at, response_status, duration_ms, error)
       VALUES ($1, clock_timestamp(), 500, 3, 'the receiver answered 500')`,
      [d.id],
    );
  }
}

it('When events pass a short retention, then they go in bounded batches with their deliveries and attempts while writes continue, newer ones stay, and the feed says where it starts', async () => {
  const old = await givenLocation(h);
  const busy = await givenLocation(h);
  await givenEndpoint(h, old, 'https://receiver.example/hooks');
  await appendEvents(h, old, occupiedEvents(25));
  await relayAll(h);
  await attemptEach(old);
  await pause(20);
  const cut = Instant.fromEpochMillis(Date.now());
  await pause(20);
  const kept = await appendEvents(h, old, occupiedEvents(3));
  const clock = new ManualClock(cut.plusMicros(BigInt(DAY_MS) * 1000n));
  const batches: number[] = [];
  const retention = {
    prune: async (olderThan: Instant, batchSize: number) => {
      const pruned = await h.persistence.retention.prune(olderThan, batchSize);
      batches.push(pruned);
      return pruned;
    },
  };
  const loop = new RetentionLoop({
    retention,
    clock,
    retentionDays: 1,
    batchSize: 4,
    logger: pino({ level: 'silent' }),
  });

  // A writer keeps appending to another location while the prune runs.
  let writing = true;
  const writer = (async () => {
    let appended = 0;
    while (writing) {
      await appendEvents(h, busy, occupiedEvents(1));
      appended += 1;
    }
    return appended;
  })();
  while (await loop.round());
  writing = false;
  const written = await writer;

  expect(batches.every((n) => n <= 4)).toBe(true);
  expect(batches.filter((n) => n > 0).length).toBeGreaterThanOrEqual(Math.ceil(25 / 4));
  const feed = await h.persistence.queries.events.page({
    locationId: old,
    after: 0,
    limit: 100,
    types: null,
  });
  expect(feed).toEqual({ events: kept, oldestRetainedSequence: 26 });
  expect(await count(`SELECT count(*) AS n FROM webhook_deliveries WHERE location_id = $1`, [old])).toBe(0);
  expect(
    await count(
      `SELECT count(*) AS n FROM webhook_attempts a WHERE NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.id = a.delivery_id)`,
      [],
    ),
  ).toBe(0);
  const busyFeed = await h.persistence.queries.events.page({
    locationId: busy,
    after: 0,
    limit: 10_000,
    types: null,
  });
  expect(busyFeed.events.map((e) => e.sequence)).toEqual(Array.from({ length: written }, (_, i) => i + 1));
  expect(busyFeed.oldestRetainedSequence).toBe(1);
});
