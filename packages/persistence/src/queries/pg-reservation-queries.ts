import {
  ownProviderId,
  type Reservation,
  type ReservationQueries,
  type ReservationWindowQuery,
} from '@pis/domain';
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

  async findByExternalId(
    locationId: string,
    externalId: string,
    providerId?: string,
  ): Promise<Reservation | null> {
    const owner = providerId ?? ownProviderId(locationId);
    if (!isUuid(locationId) || !isUuid(owner)) return null;
    const row = await this.db.read((sql) =>
      sql.first<ReservationRow>(
        `SELECT * FROM reservations WHERE location_id = $1 AND provider_id = $3 AND external_id = $2`,
        [locationId, externalId, owner],
      ),
    );
    return row === null ? null : reservationMapper.toDomain(row);
  }
}

/**
 * The window listing as one statement: an index range scan on `reservations_window
 * (location_id, provider_id, starts_at, id)`, one provider's reservations only. The keyset condition is a row comparison on the index's
 * trailing columns, so each page starts where the previous one ended instead of skipping
 * rows. null when the query can match nothing (ids that are not UUIDs, no room).
 */
export function windowStatement(
  q: ReservationWindowQuery,
): { name: string; text: string; params: unknown[] } | null {
  const owner = q.providerId ?? ownProviderId(q.locationId);
  if (!isUuid(q.locationId) || !isUuid(owner) || q.limit <= 0 || (q.after !== null && !isUuid(q.after.id))) {
    return null;
  }
  const params: unknown[] = [q.locationId, instantToDb(q.from), instantToDb(q.to), q.limit, owner];
  let keyset = '';
  if (q.after !== null) {
    params.push(instantToDb(q.after.startsAt), q.after.id);
    keyset = 'AND (starts_at, id) > ($6::timestamptz, $7::uuid)';
  }
  const text = `SELECT * FROM reservations
    WHERE location_id = $1 AND provider_id = $5 AND starts_at >= $2 AND starts_at < $3 ${keyset}
    ORDER BY starts_at, id LIMIT $4`;
  return { name: q.after === null ? 'pis_reservation_window' : 'pis_reservation_window_after', text, params };
}
