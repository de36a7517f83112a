import type { Reservation, ReservationQueries, ReservationWindowQuery } from '@pis/domain';
import { instantToDb } from '../db-instant';
import { reservationMapper } from '../mappers/reservation.mapper';
import type { ReservationRow } from '../schemas/reservation.schema';
import type { DbSession } from '../adapters/db-session';
import { isUuid } from '../adapters/uuid';

export class TypeormReservationQueries implements ReservationQueries {
  constructor(private readonly session: DbSession) {}

  /**
   * An index range scan on `reservations_window (location_id, starts_at, id)`: the keyset
   * condition is a row comparison on the index's trailing columns, so every page starts
   * where the previous one ended instead of skipping rows.
   */
  async listWindow(q: ReservationWindowQuery): Promise<Reservation[]> {
    if (!isUuid(q.locationId) || q.limit <= 0) return [];
    const params: unknown[] = [q.locationId, instantToDb(q.from), instantToDb(q.to), q.limit];
    let keyset = '';
    if (q.after !== null) {
      if (!isUuid(q.after.id)) return [];
      params.push(instantToDb(q.after.startsAt), q.after.id);
      keyset = 'AND (starts_at, id) > ($5::timestamptz, $6::uuid)';
    }
    const rows = await this.session.read((sql) =>
      sql.rows<ReservationRow>(
        `SELECT * FROM reservations
         WHERE location_id = $1 AND starts_at >= $2 AND starts_at < $3 ${keyset}
         ORDER BY starts_at, id LIMIT $4`,
        params,
      ),
    );
    return rows.map(reservationMapper.toDomain);
  }

  async findByExternalId(locationId: string, externalId: string): Promise<Reservation | null> {
    if (!isUuid(locationId)) return null;
    const row = await this.session.read((sql) =>
      sql.first<ReservationRow>(`SELECT * FROM reservations WHERE location_id = $1 AND external_id = $2`, [
        locationId,
        externalId,
      ]),
    );
    return row === null ? null : reservationMapper.toDomain(row);
  }
}
