import type {
  Instant,
  PlainReservationWrites,
  PlainUpdateResult,
  Reservation,
  ReservationInput,
} from '@pis/domain';
import { reservationMapper } from '../mappers/reservation.mapper';
import type { ReservationRow } from '../schemas/reservation.schema';
import type { StatementRunner } from './prepared-statements';
import { isUuid } from './uuid';

const COLUMNS: (keyof ReservationRow)[] = [
  'id',
  'location_id',
  'external_id',
  'status',
  'party_name',
  'covers',
  'starts_at',
  'ends_at',
  'table_ids',
  'guest',
  'internal_note',
  'prepayment',
  'pos_order_id',
  'updated_at',
  'linked_order_id',
  'arrived_at',
  'received_at',
];

const CREATE = `INSERT INTO reservations (${COLUMNS.join(', ')})
  VALUES (${COLUMNS.map((_, i) => `$${i + 1}`).join(', ')})
  ON CONFLICT (location_id, external_id) DO NOTHING RETURNING id`;

/**
 * Last-write-wins in one statement: `cur` reads and locks the stored row (after waiting
 * for a concurrent writer, READ COMMITTED re-reads its newest version), `plan` reads the
 * latest published plan's active tables among the named ones (`$15`: those of `$8` that
 * are canonical uuids, the only ids tables have), `upd` applies
 * the write only when it is newer and every named table is active, and the answer says
 * which happened: `applied` with the new row, `stale` with the stored one,
 * `tables_refused` with the plan's version and active ids, or no row when there is no
 * reservation. `arrived_at` is set by the first write that arrives or seats and never
 * cleared; `linked_order_id` and `id` are the stored ones. The same decision, in the same
 * order, as `decideReservationWrite` then `checkTableIds`.
 */
const UPDATE = `WITH cur AS (
    SELECT * FROM reservations WHERE location_id = $1 AND external_id = $2 FOR UPDATE
  ), plan AS (
    SELECT fp.published_version AS version,
           array_remove(array_agg(t.id::text), NULL) AS active_ids
      FROM floor_plans fp
      LEFT JOIN dining_tables t ON t.location_id = fp.location_id AND t.id = ANY($15::uuid[])
                               AND t.published_active
     WHERE fp.location_id = $1 AND cardinality($8::text[]) > 0
     GROUP BY fp.published_version
  ), tables AS (
    SELECT cardinality($8::text[]) = 0
        OR EXISTS (SELECT 1 FROM plan WHERE version IS NOT NULL AND cardinality(active_ids) = cardinality($8::text[]))
        AS usable
  ), upd AS (
    UPDATE reservations r SET
      status = $3, party_name = $4, covers = $5, starts_at = $6, ends_at = $7, table_ids = $8,
      guest = $9, internal_note = $10, prepayment = $11, pos_order_id = $12, updated_at = $13,
      received_at = $14,
      arrived_at = COALESCE(cur.arrived_at, CASE WHEN $3 IN ('arrived', 'seated') THEN $14::timestamptz END)
    FROM cur, tables
    WHERE r.id = cur.id AND cur.updated_at < $13::timestamptz AND tables.usable
    RETURNING r.*
  )
  SELECT 'applied' AS outcome, NULL::integer AS plan_version, NULL::text[] AS plan_active_ids, upd.* FROM upd
  UNION ALL
  SELECT CASE WHEN cur.updated_at < $13::timestamptz THEN 'tables_refused' ELSE 'stale' END,
         plan.version, plan.active_ids, cur.*
    FROM cur LEFT JOIN plan ON true
   WHERE NOT EXISTS (SELECT 1 FROM upd)`;

type OutcomeRow = ReservationRow & {
  outcome: 'applied' | 'stale' | 'tables_refused';
  plan_version: number | null;
  plan_active_ids: string[] | null;
};

export class SqlPlainReservationWrites implements PlainReservationWrites {
  constructor(private readonly run: StatementRunner) {}

  async create(reservation: Reservation): Promise<'inserted' | 'duplicate'> {
    const row = reservationMapper.toPersistence(reservation);
    const params = COLUMNS.map((column) => dbValue(row[column]));
    const inserted = await this.run('pis_reservation_create', CREATE, params);
    return inserted.length === 1 ? 'inserted' : 'duplicate';
  }

  async update(locationId: string, input: ReservationInput, receivedAt: Instant): Promise<PlainUpdateResult> {
    if (!isUuid(locationId)) return { kind: 'missing' };
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
    ];
    const [answer] = await this.run<OutcomeRow>('pis_reservation_update', UPDATE, params);
    if (answer === undefined) return { kind: 'missing' };
    const { outcome, plan_version, plan_active_ids, ...stored } = answer;
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
