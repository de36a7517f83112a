import { Instant } from '@pis/domain';
import { createPersistence, openDatabase, runMigrations } from '@pis/persistence';
import { createDatabase, databaseUrl, dropDatabase, withClient } from './database';

/*
 * The event feed and retention at millions of events in one location (docs/decisions/0091):
 * seeds EVENTS events (default 2,000,000, one every half second, the oldest 11 days old) in a
 * database of its own, then times feed pages of 1,000 at the start, the middle and the head of
 * the location's sequence, and BATCHES prune batches of 1,000 past a 5-day retention.
 *
 *   pnpm tsx tools/bench/src/feed-scale.ts            (PIS_FEED_EVENTS, PIS_FEED_BATCHES override)
 */
const EVENTS = Number(process.env['PIS_FEED_EVENTS'] ?? 2_000_000);
const BATCHES = Number(process.env['PIS_FEED_BATCHES'] ?? 50);
const LOCATION = '11111111-1111-4111-8111-111111111111';
const name = `pis_bench_feed_${Date.now()}`;

const ms = (since: bigint) => Number(process.hrtime.bigint() - since) / 1e6;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function main(): Promise<void> {
  await createDatabase(name);
  const db = await openDatabase({ databaseUrl: databaseUrl(name) });
  try {
    await runMigrations(db);
    const seeded = process.hrtime.bigint();
    await withClient(databaseUrl(name), async (c) => {
      await c.query(
        `INSERT INTO locations (id, name, brand, currency, created_at, event_sequence)
         VALUES ($1, 'Feed', 'feed', 'EUR', now(), $2)`,
        [LOCATION, EVENTS],
      );
      await c.query(
        `INSERT INTO outbox_events (id, location_id, sequence, type, occurred_at, data, created_at, relayed_at)
         SELECT gen_random_uuid(), $1, g, (ARRAY['table.occupied','table.freed','table.spend_updated','order.closed'])[1 + g % 4],
                now() - make_interval(secs => ($2 - g) * 0.5),
                '{"tableId":"t","orderId":"o","reservationExternalId":null,"covers":2,"occurredAt":"2026-11-21T19:00:00.000Z"}',
                now() - make_interval(secs => ($2 - g) * 0.5), now()
           FROM generate_series(1, $2::int) g`,
        [LOCATION, EVENTS],
      );
      await c.query('ANALYZE outbox_events');
    });
    const seedMs = ms(seeded);
    const persistence = createPersistence(db, { cipher: { encrypt: (s) => s, decrypt: (s) => s } });
    const page = async (after: number, types: ('order.closed' | 'table.occupied')[] | null = null) => {
      const times: number[] = [];
      for (let i = 0; i < 5; i++) {
        const started = process.hrtime.bigint();
        await persistence.queries.events.page({ locationId: LOCATION, after, limit: 1_000, types });
        times.push(ms(started));
      }
      return Math.round(median(times) * 10) / 10;
    };
    const feed = {
      startMs: await page(0),
      middleMs: await page(Math.floor(EVENTS / 2)),
      headMs: await page(EVENTS - 1_000),
      oneTypeOfFourMs: await page(Math.floor(EVENTS / 2), ['order.closed']),
    };
    const cutoff = Instant.fromEpochMillis(Date.now() - 5 * 86_400_000);
    const batches: number[] = [];
    let pruned = 0;
    for (let i = 0; i < BATCHES; i++) {
      const started = process.hrtime.bigint();
      pruned += await persistence.retention.prune(cutoff, 1_000);
      batches.push(ms(started));
    }
    const pruneMs = batches.reduce((a, b) => a + b, 0);
    console.log(
      JSON.stringify(
        {
          events: EVENTS,
          seedSeconds: Math.round(seedMs / 100) / 10,
          feedPageOf1000: feed,
          prune: {
            batches: BATCHES,
            pruned,
            batchMsMedian: Math.round(median(batches) * 10) / 10,
            batchMsMax: Math.round(Math.max(...batches) * 10) / 10,
            eventsPerSecond: Math.round(pruned / (pruneMs / 1000)),
          },
        },
        null,
        2,
      ),
    );
  } finally {
    await db.close();
    await dropDatabase(name);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
