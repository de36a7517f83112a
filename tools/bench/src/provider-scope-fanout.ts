import { createPersistence, openDatabase, runMigrations } from '@pis/persistence';
import { createDatabase, databaseUrl, dropDatabase, withClient } from './database';

/*
 * What the relay's provider-scope branch reads to fan one event out
 * (docs/decisions/0215-provider-scope-endpoints-and-connection-events.md): for each PROVIDERS
 * (default 100 and 10,000) a database of its own with that many locations and providers, each
 * provider connected to its own location with two provider-scope endpoints, and one location
 * also connected to two more providers. One event at that location is explained (rows and
 * shared buffers of the branch: connections of the location, then each provider's endpoints),
 * then relayed for real, counting its deliveries. The buffers stay flat as the service grows.
 *
 *   pnpm tsx tools/bench/src/provider-scope-fanout.ts        (PIS_FANOUT_PROVIDERS=100,10000)
 */
const SIZES = (process.env['PIS_FANOUT_PROVIDERS'] ?? '100,10000').split(',').map(Number);

const BRANCH = `
  SELECT r.id, ep.id FROM (SELECT * FROM outbox_events WHERE relayed_at IS NULL) r
    JOIN connections cn ON cn.location_id = r.location_id AND cn.covered @> r.sequence
    JOIN webhook_endpoints ep ON ep.provider_id = cn.provider_id AND ep.location_id IS NULL
                             AND ep.disabled_at IS NULL AND r.type = ANY(ep.events)`;

async function measure(providers: number): Promise<void> {
  const name = `pis_bench_fanout_${Date.now()}`;
  await createDatabase(name);
  const db = await openDatabase({ databaseUrl: databaseUrl(name) });
  try {
    await runMigrations(db);
    const plan = await withClient(databaseUrl(name), async (c) => {
      await c.query(
        `INSERT INTO locations (id, name, brand, currency, created_at)
         SELECT gen_random_uuid(), 'L' || lpad(i::text, 6, '0'), 'b', 'EUR', now() FROM generate_series(1, $1) i`,
        [providers],
      );
      await c.query(
        `INSERT INTO providers (id, name, brand, created_at)
         SELECT gen_random_uuid(), 'P' || lpad(i::text, 6, '0'), 'b', now() FROM generate_series(1, $1) i`,
        [providers],
      );
      await c.query(
        `INSERT INTO connections (location_id, provider_id, status, granted_at, covered)
         SELECT l.id, p.id, 'active', now(), int8multirange(int8range(0, NULL))
           FROM (SELECT id, row_number() OVER (ORDER BY name) n FROM locations) l
           JOIN (SELECT id, row_number() OVER (ORDER BY name) n FROM providers) p USING (n)`,
      );
      await c.query(
        `INSERT INTO connections (location_id, provider_id, status, granted_at, covered)
         SELECT (SELECT id FROM locations ORDER BY name LIMIT 1), id, 'active', now(), int8multirange(int8range(0, NULL))
           FROM providers ORDER BY name OFFSET 1 LIMIT 2`,
      );
      await c.query(
        `INSERT INTO webhook_endpoints (id, location_id, provider_id, singleton, url, events, secrets, created_at, updated_at)
         SELECT gen_random_uuid(), NULL, p.id, false, 'https://hooks.example.com/h', ARRAY['table.occupied'], '[]', now(), now()
           FROM providers p, generate_series(1, 2)`,
      );
      await c.query(
        `UPDATE locations SET event_sequence = 1 WHERE id = (SELECT id FROM locations ORDER BY name LIMIT 1)`,
      );
      await c.query(
        `INSERT INTO outbox_events (id, location_id, sequence, type, occurred_at, data)
         SELECT gen_random_uuid(), id, 1, 'table.occupied', now(), '{}' FROM locations ORDER BY name LIMIT 1`,
      );
      await c.query('ANALYZE');
      const explained = await c.query<{ 'QUERY PLAN': string }>(
        `EXPLAIN (ANALYZE, BUFFERS, COSTS OFF, TIMING OFF, SUMMARY OFF) ${BRANCH}`,
      );
      return explained.rows.map((r) => r['QUERY PLAN']);
    });
    const persistence = createPersistence(db, { cipher: { encrypt: (s) => s, decrypt: (s) => s } });
    const relayed = await persistence.pipeline.relay.relayBatch(500);
    const top = plan[0]!;
    const buffers = plan.find((line) => line.trim().startsWith('Buffers:'))!.trim();
    console.log(
      `${providers} providers: provider-scope branch ${top.trim()}, ${buffers}; relayed ${relayed.events} event into ${relayed.created.length} deliveries`,
    );
    if (process.env['PIS_FANOUT_PLAN'] === '1') console.log(plan.join('\n'));
  } finally {
    await db.close();
    await dropDatabase(name);
  }
}

async function main(): Promise<void> {
  for (const size of SIZES) await measure(size);
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
