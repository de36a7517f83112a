import type { Reservation, ReservationQueries, ReservationWindowQuery } from '@pis/domain';
import { instantToDb } from '../db-instant';
import { reservationMapper } from '../mappers/reservation.mapper';
import type { ReservationRow } from '../schemas/reservation.schema';
import type { Database } from '../db/database';
import { isUuid } from '../adapters/uuid';

export class PgReservationQueries implements ReservationQueries {
  constructor(private readonly db: Database) {}

  async listWindow(q: ReservationWindowQuery): Promise<Reservation[]> {
    const statement = windowStatement(q);
    if (statement === null) return [];
    const rows = await this.db.prepared<ReservationRow>(statement.name, statement.text, statement.params, {
      location: q.locationId,
    });
    return rows.map(reservationMapper.toDomain);
  }

  async findByExternalId(locationId: string, externalId: string): Promise<Reservation | null> {
    if (!isUuid(locationId)) return null;
    const row = await this.db.read((sql) =>
      sql.first<ReservationRow>(`SELECT * FROM reservations WHERE location_id = $1 AND external_id = $2`, [
        locationId,
        externalId,
      ]),
    );
    return row === null ? null : reservationMapper.toDomain(row);
  }
}

/**
 * The window listing as one statement: an index range scan on `reservations_window
 * (location_id, starts_at, id)`. The keyset condition is a row comparison on the index's
 * trailing columns, so each page starts where the previous one ended instead of skipping
 * rows. null when the query can match nothing (ids that are not UUIDs, no room).
 */
export function windowStatement(
  q: ReservationWindowQuery,
): { name: string; text: string; params: unknown[] } | null {
  if (!isUuid(q.locationId) || q.limit <= 0 || (q.after !== null && !isUuid(q.after.id))) return null;
  const params: unknown[] = [q.locationId, instantToDb(q.from), instantToDb(q.to), q.limit];
  let keyset = '';
  if (q.after !== null) {
    params.push(instantToDb(q.after.startsAt), q.after.id);
    keyset = 'AND (starts_at, id) > ($5::timestamptz, $6::uuid)';
  }
  const text = `SELECT * FROM reservations
    WHERE location_id = $1 AND starts_at >= $2 AND starts_at < $3 ${keyset}
    ORDER BY starts_at, id LIMIT $4`;
  return { name: q.after === null ? 'pis_reservation_window' : 'pis_reservation_window_after', text, params };
}
