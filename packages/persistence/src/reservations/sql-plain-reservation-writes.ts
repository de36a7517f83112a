import {
  ownProviderId,
  type Instant,
  type PlainReservationWrites,
  type PlainUpdateResult,
  type Reservation,
  type ReservationInput,
} from '@pis/domain';
import { reservationMapper } from '../mappers/reservation.mapper';
import {
  reservationSchema,
  type OwnedReservationRow,
  type ReservationRow,
} from '../schemas/reservation.schema';
import type { Database } from '../db/database';
import { isUuid } from '../adapters/uuid';

/**
 * The inserted columns, in the order the entity declares them: derived from the reservation
 * entity as `Sql.insertValues` derives its columns from the entity metadata (a column the
 * entity marks `insert: false` is left out), so a column added to the entity is written here
 * too without a second list to keep in step.
 */
const COLUMNS = Object.entries(reservationSchema.options.columns)
  .filter(([, column]) => column !== undefined && column.insert !== false)
  .map(([property, column]) => ({
    property: property as keyof OwnedReservationRow,
    name: column?.name ?? property,
  }));

const CREATE = `INSERT INTO ${reservationSchema.options.tableName} (${COLUMNS.map((c) => `"${c.name}"`).join(', ')})
  VALUES (${COLUMNS.map((_, i) => `$${i + 1}`).join(', ')})
  ON CONFLICT (location_id, provider_id, external_id) DO NOTHING RETURNING id`;

/**
 * Last-write-wins in one statement that locks only what it writes. `upd` updates the row
 * only when the write is newer (`updated_at < $13`) and then every named table is usable: a stale
 * write fails that condition on the row as the statement sees it, so it takes no row lock,
 * gets no transaction id and writes no WAL. A newer write waits for a concurrent writer of
 * the row, and PostgreSQL re-checks the condition on the row that writer committed (READ
 * COMMITTED), so the newest `updatedAt` still wins. `tables` (only evaluated for a write that
 * is newer: the CASE keeps PostgreSQL from running it first) reads the latest published plan's active
 * tables among the named ones (`$15`: those of `$8` that are canonical uuids, the only ids
 * tables have). When nothing was updated, `cur` (the row as the statement saw it, no lock)
 * says why: `stale` with the stored row, `tables_refused` with the plan's version and active
 * ids, or `superseded` when it was newer and usable but a concurrent writer committed a
 * newer one meanwhile (the caller reads again: the row is now stale against it); no row when
 * there is no reservation. `arrived_at` is set by the first write that arrives or seats and
 * never cleared; `linked_order_id` and `id` are the stored ones. The same decision, in the
 * same order, as `decideReservationWrite` then `checkTableIds`. Only the writing provider's
 * reservation (`$16`) is read or written: another provider's of the same externalId is none.
 */
const UPDATE = `WITH plan AS (
    SELECT fp.published_version AS version,
           ARRAY(SELECT t.id::text FROM dining_tables t
                  WHERE t.location_id = $1 AND t.id = ANY($15::uuid[]) AND t.published_active) AS active_ids
      FROM floor_plans fp
     WHERE fp.location_id = $1
  ), tables AS (
    SELECT cardinality($8::text[]) = 0
        OR EXISTS (SELECT 1 FROM plan WHERE version IS NOT NULL AND cardinality(active_ids) = cardinality($8::text[]))
        AS usable
  ), upd AS (
    UPDATE reservations r SET
      status = $3, party_name = $4, covers = $5, starts_at = $6, ends_at = $7, table_ids = $8,
      guest = $9, internal_note = $10, prepayment = $11, pos_order_id = $12, updated_at = $13,
      received_at = $14,
      arrived_at = COALESCE(r.arrived_at, CASE WHEN $3 IN ('arrived', 'seated') THEN $14::timestamptz END)
    WHERE r.location_id = $1 AND r.provider_id = $16 AND r.external_id = $2
      AND CASE WHEN r.updated_at < $13::timestamptz THEN (SELECT usable FROM tables) ELSE false END
    RETURNING r.*
  ), cur AS (
    SELECT * FROM reservations WHERE location_id = $1 AND provider_id = $16 AND external_id = $2
  )
  SELECT 'applied' AS outcome, NULL::integer AS plan_version, NULL::text[] AS plan_active_ids, upd.* FROM upd
  UNION ALL
  SELECT CASE WHEN cur.updated_at >= $13::timestamptz THEN 'stale'
              WHEN (SELECT usable FROM tables) THEN 'superseded'
              ELSE 'tables_refused' END,
         CASE WHEN cur.updated_at < $13::timestamptz THEN (SELECT version FROM plan) END,
         CASE WHEN cur.updated_at < $13::timestamptz THEN (SELECT active_ids FROM plan) END,
         cur.*
    FROM cur
   WHERE NOT EXISTS (SELECT 1 FROM upd)`;

type OutcomeRow = ReservationRow & {
  outcome: 'applied' | 'stale' | 'tables_refused' | 'superseded';
  plan_version: number | null;
  plan_active_ids: string[] | null;
};

export class SqlPlainReservationWrites implements PlainReservationWrites {
  constructor(private readonly db: Database) {}

  async create(reservation: Reservation, providerId?: string): Promise<'inserted' | 'duplicate'> {
    const row = reservationMapper.toOwnedRow(
      reservation,
      providerId ?? ownProviderId(reservation.locationId),
    );
    const params = COLUMNS.map((column) => dbValue(row[column.property]));
    const inserted = await this.db.prepared('pis_reservation_create', CREATE, params);
    if (inserted.length === 0) return 'duplicate';
    await this.db.noteWrite();
    return 'inserted';
  }

  async update(
    locationId: string,
    input: ReservationInput,
    receivedAt: Instant,
    providerId?: string,
  ): Promise<PlainUpdateResult> {
    const owner = providerId ?? ownProviderId(locationId);
    if (!isUuid(locationId) || !isUuid(owner)) return { kind: 'missing' };
    // The mapper's column forms, from a reservation that only carries the write's fields.
    const row = reservationMapper.toPersistence({
      ...input,
      id: '',
      locationId,
      linkedOrderId: null,
      arrivedAt: null,
      receivedAt,
    });
    const params = [
      locationId,
      input.externalId,
      row.status,
      row.party_name,
      row.covers,
      row.starts_at,
      row.ends_at,
      row.table_ids,
      dbValue(row.guest),
      row.internal_note,
      dbValue(row.prepayment),
      row.pos_order_id,
      row.updated_at,
      row.received_at,
      input.tableIds.filter(isUuid),
      owner,
    ];
    let [answer] = await this.db.prepared<OutcomeRow>('pis_reservation_update', UPDATE, params);
    // Superseded: a newer write committed while this one waited for the row. The statement
    // run again reads that version, against which this write is stale (updatedAt only grows).
    for (let again = 1; answer?.outcome === 'superseded' && again < 4; again++) {
      [answer] = await this.db.prepared<OutcomeRow>('pis_reservation_update', UPDATE, params);
    }
    if (answer === undefined) return { kind: 'missing' };
    const { outcome, plan_version, plan_active_ids, ...stored } = answer;
    if (outcome === 'superseded') {
      throw new Error(`reservation ${input.externalId}: superseded by concurrent writes four times in a row`);
    }
    // Only an applied write changed the row; stale and refused ones wrote nothing to wait for.
    if (outcome === 'applied') await this.db.noteWrite();
    if (outcome === 'tables_refused') {
      const published =
        plan_version === null
          ? null
          : { version: plan_version, tables: (plan_active_ids ?? []).map((id) => ({ id, active: true })) };
      return { kind: outcome, published };
    }
    return { kind: outcome, reservation: reservationMapper.toDomain(stored) };
  }
}

/** jsonb parameters travel as JSON text; everything else as the mapper made it. */
function dbValue(value: unknown): unknown {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? JSON.stringify(value) : value;
}
