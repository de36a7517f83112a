import { BACKOFFICE, BACKOFFICE_TOKEN, call, PROVIDER } from './api-client';
import type { Client } from 'pg';
import { withClient } from './database';
import { floorPlanImport, GUEST, PREPAYMENT } from './fixtures';

export interface BenchLocation {
  locationId: string;
  /** The provider key (this run's database only). */
  key: string;
  /** Table ids of the published plan. */
  tableIds: string[];
}

/** A location with a provider key and a published plan of `tables` tables, through the API. */
export async function provisionLocation(
  baseUrl: string,
  name: string,
  tables: number,
): Promise<BenchLocation> {
  const location = await call<{ id: string }>(baseUrl, BACKOFFICE_TOKEN, 'POST', `${BACKOFFICE}/locations`, {
    name,
    brand: 'bench',
  });
  const ops = `${BACKOFFICE}/locations/${location.id}`;
  const { key } = await call<{ key: string }>(baseUrl, BACKOFFICE_TOKEN, 'POST', `${ops}/api-keys`);
  const imported = await call<{ mapping: { tableId: string }[] }>(
    baseUrl,
    key,
    'POST',
    `${PROVIDER}/floorplan/import`,
    floorPlanImport(tables),
  );
  await call(baseUrl, BACKOFFICE_TOKEN, 'POST', `${ops}/floorplan/publish`);
  return { locationId: location.id, key, tableIds: imported.mapping.map((m) => m.tableId) };
}

export interface ReservationSeed {
  locationId: string;
  /** External ids are `<prefix>-<n>`, n from 0. */
  prefix: string;
  count: number;
  /** The first reservation's `startsAt` (ms since the epoch); the others follow `spacingS` apart. */
  firstStartMs: number;
  spacingS: number;
  /** Every seeded row's `updatedAt`: writes newer than this apply. */
  updatedAt: string;
  /** A connected provider that owns the rows (default: the location's own provider). */
  providerId?: string;
}

/**
 * `count` confirmed reservations straight into `reservations` with one INSERT ... SELECT
 * generate_series, shaped as the API stores them (guest and prepayment filled), then
 * VACUUM ANALYZE so the planner knows the table's size. A million rows take about a minute.
 */
export async function seedReservations(databaseUrl: string, seed: ReservationSeed): Promise<void> {
  await withClient(databaseUrl, async (client) => {
    await client.query(
      `INSERT INTO reservations (id, location_id, external_id, status, party_name, covers, starts_at, ends_at,
                                 table_ids, guest, internal_note, prepayment, pos_order_id, updated_at,
                                 linked_order_id, arrived_at, received_at, connected_provider_id)
       SELECT gen_random_uuid(), $1, $2 || '-' || n, 'confirmed', 'Party ' || n, 1 + n % 8,
              $3::timestamptz + make_interval(secs => n * $4::float8),
              $3::timestamptz + make_interval(secs => n * $4::float8 + 7200),
              '{}', $5::jsonb, 'seeded', $6::jsonb, NULL, $7::timestamptz, NULL, NULL, now(), $9::uuid
         FROM generate_series(0, $8::int - 1) AS n`,
      [
        seed.locationId,
        seed.prefix,
        new Date(seed.firstStartMs).toISOString(),
        seed.spacingS,
        JSON.stringify(GUEST),
        JSON.stringify(PREPAYMENT),
        seed.updatedAt,
        seed.count,
        seed.providerId ?? null,
      ],
    );
    await client.query('VACUUM ANALYZE reservations');
  });
}

/**
 * `count` locations straight in SQL (for speed), named `${name} 1` to `${name} <count>` with
 * brand `brand`, each with its floor plan, its own provider and that provider's connection, as
 * the API stores them. `rest` follows those in the same statement: more common table
 * expressions (each after a comma) and the final statement, which may read `made` (the new
 * locations' id, name, brand and created_at); its parameters start at $4 (`values`).
 */
export async function seedLocations(
  client: Client,
  locations: { count: number; name: string; brand: string },
  rest: string,
  values: unknown[] = [],
): Promise<void> {
  await client.query(
    `WITH made AS (
       INSERT INTO locations (id, name, brand, currency, created_at, sandbox)
       SELECT gen_random_uuid(), $2::text || ' ' || n, $3::text, 'EUR', now(), false
         FROM generate_series(1, $1::int) n
       RETURNING id, name, brand, created_at),
     plans AS (INSERT INTO floor_plans (location_id) SELECT id FROM made),
     own AS (INSERT INTO providers (id, name, brand, own_location_id, created_at)
             SELECT id, name, brand, id, created_at FROM made),
     own_connections AS (
       INSERT INTO connections (location_id, provider_id, status, granted_at, covered)
       SELECT id, id, 'active', created_at, '{[1,)}' FROM made)
     ${rest}`,
    [locations.count, locations.name, locations.brand, ...values],
  );
}
