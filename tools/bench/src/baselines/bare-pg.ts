/**
 * Baseline child process: a bare `pg` client issuing the single SQL statement an operation
 * amounts to, at the benchmark's concurrency, with its own event loop (like the API). Modes:
 * - `upsert`: the PUT as one statement: INSERT ... ON CONFLICT DO UPDATE ... WHERE
 *   stored.updated_at < excluded.updated_at, the full body (guest and prepayment as jsonb),
 *   on `bench_baseline_reservations` (LIKE reservations INCLUDING ALL, seeded with the
 *   put-applied rows), every write newer than the last, prepared once.
 * - `list`: the listing's own statement (`windowStatement`) for a random day, prepared once.
 * Reads its settings from `PIS_BENCH_BASELINE` (JSON) and sends its samples over IPC.
 */
import { Instant } from '@pis/domain';
import { windowStatement } from '@pis/persistence';
import { Pool, types, type CustomTypesConfig } from 'pg';
import { GUEST, PREPAYMENT } from '../fixtures';
import type { Sample } from '../report/stats';
import { BASELINE_TABLE, type BarePgSettings, type BaselineReport } from './baseline-protocol';

const settings = JSON.parse(process.env.PIS_BENCH_BASELINE ?? '{}') as BarePgSettings;

/**
 * Rows are read as the API's pool reads them (packages/persistence type-parsers): timestamptz
 * as text, int8 as a number, the rest (jsonb included) by pg's defaults. A Date per timestamp
 * would make the baseline pay for work the API does not do.
 */
const TIMESTAMPTZ = 1184;
const INT8 = 20;
const apiTypes: CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') => {
    if (format !== 'binary' && oid === TIMESTAMPTZ) return (value: string) => value;
    if (format !== 'binary' && oid === INT8) return (value: string) => Number(value);
    return types.getTypeParser(oid, format ?? 'text');
  }) as CustomTypesConfig['getTypeParser'],
};

const UPSERT = `
  INSERT INTO ${BASELINE_TABLE} AS stored (id, location_id, external_id, status, party_name, covers, starts_at,
      ends_at, table_ids, guest, internal_note, prepayment, pos_order_id, updated_at, received_at)
  VALUES (gen_random_uuid(), $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, now())
  ON CONFLICT (location_id, external_id) DO UPDATE SET
    status = excluded.status, party_name = excluded.party_name, covers = excluded.covers,
    starts_at = excluded.starts_at, ends_at = excluded.ends_at, table_ids = excluded.table_ids,
    guest = excluded.guest, internal_note = excluded.internal_note, prepayment = excluded.prepayment,
    pos_order_id = excluded.pos_order_id, updated_at = excluded.updated_at, received_at = excluded.received_at
  WHERE stored.updated_at < excluded.updated_at
  RETURNING *`;

function operation(): () => { name: string; text: string; values: unknown[] } {
  if (settings.mode === 'upsert') {
    const guest = JSON.stringify(GUEST);
    const prepayment = JSON.stringify(PREPAYMENT);
    let k = 0;
    return () => {
      const i = k++;
      return {
        name: 'bench_upsert',
        text: UPSERT,
        values: [
          settings.locationId,
          `${settings.prefix}-${i % settings.reservations}`,
          'confirmed',
          'Lovelace party',
          2,
          '2026-11-21T19:00:00Z',
          '2026-11-21T21:00:00Z',
          settings.tableIds,
          guest,
          'Prefers the quiet corner; birthday cake at 21:00',
          prepayment,
          null,
          new Date(settings.firstWriteMs + i).toISOString(),
        ],
      };
    };
  }
  return () => {
    const from = settings.firstDayMs + Math.floor(Math.random() * settings.days) * 86_400_000;
    const statement = windowStatement({
      locationId: settings.locationId,
      from: Instant.fromEpochMillis(from),
      to: Instant.fromEpochMillis(from + 86_400_000),
      after: null,
      limit: settings.limit + 1,
    })!;
    return { name: 'bench_window', text: statement.text, values: statement.params };
  };
}

async function run(
  pool: Pool,
  next: ReturnType<typeof operation>,
  durationS: number,
  samples: Sample[] | null,
) {
  const started = performance.now();
  const deadline = started + durationS * 1000;
  let errors = 0;
  const loop = async () => {
    while (performance.now() < deadline) {
      const op = next();
      const t = performance.now();
      try {
        await pool.query(op);
      } catch {
        errors++;
      }
      const end = performance.now();
      samples?.push([end - started, end - t]);
    }
  };
  await Promise.all(Array.from({ length: settings.connections }, loop));
  return { errors, seconds: (performance.now() - started) / 1000 };
}

async function main(): Promise<void> {
  const pool = new Pool({
    connectionString: settings.databaseUrl,
    max: settings.connections,
    types: apiTypes,
  });
  const next = operation();
  if (settings.warmupS > 0) await run(pool, next, settings.warmupS, null);
  const samples: Sample[] = [];
  const { errors, seconds } = await run(pool, next, settings.durationS, samples);
  await pool.end();
  const report: BaselineReport = { samples, errors, seconds };
  process.send!(report, () => process.exit(0));
}

main().catch((error) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
