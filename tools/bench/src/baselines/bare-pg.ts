/**
 * Baseline: a bare `pg` client issuing the single SQL statement a PUT amounts to (an upsert
 * with the last-write-wins condition, full body with guest and prepayment as jsonb) at the
 * benchmark's concurrency, on a table shaped like `reservations`. Run as its own process
 * (its own event loop, like the API); prints a JSON summary on stdout.
 */
import { Pool } from 'pg';
import { summarize } from '../report/stats';
import { GUEST, PREPAYMENT } from '../seed';

const databaseUrl = process.env.DATABASE_URL!;
const connections = Number(process.env.CONNECTIONS ?? 32);
const durationS = Number(process.env.DURATION_S ?? 20);
const rows = 20_000;
const LOCATION = '00000000-0000-4000-8000-00000000b00e';

const UPSERT = `INSERT INTO bench_baseline (id, location_id, external_id, status, party_name, covers, starts_at, ends_at,
     table_ids, guest, internal_note, prepayment, pos_order_id, updated_at, linked_order_id, arrived_at, received_at)
   VALUES (gen_random_uuid(), $1, $2, $3, $4, $5, $6, $7, '{}', $8, $9, $10, NULL, $11, NULL, NULL, now())
   ON CONFLICT (location_id, external_id) DO UPDATE SET
     status = excluded.status, party_name = excluded.party_name, covers = excluded.covers,
     starts_at = excluded.starts_at, ends_at = excluded.ends_at, guest = excluded.guest,
     internal_note = excluded.internal_note, prepayment = excluded.prepayment,
     updated_at = excluded.updated_at, received_at = excluded.received_at
   WHERE bench_baseline.updated_at < excluded.updated_at
   RETURNING *`;

async function main() {
  const pool = new Pool({ connectionString: databaseUrl, max: connections });
  await pool.query('DROP TABLE IF EXISTS bench_baseline');
  await pool.query('CREATE TABLE bench_baseline (LIKE reservations INCLUDING ALL)');
  await pool.query(
    `INSERT INTO bench_baseline (id, location_id, external_id, status, covers, starts_at, table_ids, updated_at, received_at)
     SELECT gen_random_uuid(), $1, 'b-' || n, 'confirmed', 2, now(), '{}', '2026-01-01T00:00:00Z', now()
       FROM generate_series(0, $2::int - 1) n`,
    [LOCATION, rows],
  );
  const guest = JSON.stringify(GUEST);
  const prepayment = JSON.stringify(PREPAYMENT);
  let counter = 0;
  const latencies: number[] = [];
  const base = Date.parse('2026-01-02T00:00:00Z');
  const deadline = performance.now() + durationS * 1000;
  const worker = async () => {
    while (performance.now() < deadline) {
      const i = counter++;
      const started = performance.now();
      await pool.query({
        name: 'bench_upsert',
        text: UPSERT,
        values: [
          LOCATION,
          `b-${i % rows}`,
          'confirmed',
          'Lovelace party',
          1 + (i % 8),
          '2026-11-21T19:00:00Z',
          '2026-11-21T21:00:00Z',
          guest,
          'Prefers the quiet corner; birthday cake at 21:00',
          prepayment,
          new Date(base + i).toISOString(),
        ],
      });
      latencies.push(performance.now() - started);
    }
  };
  await Promise.all(Array.from({ length: connections }, worker));
  await pool.query('DROP TABLE bench_baseline');
  await pool.end();
  process.stdout.write(
    JSON.stringify({
      requests: latencies.length,
      rps: Math.round(latencies.length / durationS),
      latency: summarize(latencies),
    }),
  );
}

main().catch((error) => {
  process.stderr.write(String(error?.stack ?? error));
  process.exit(1);
});
