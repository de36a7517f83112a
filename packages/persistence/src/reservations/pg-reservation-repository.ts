import { ownProviderId, type Reservation, type ReservationRepository } from '@pis/domain';
import { reservationMapper } from '../mappers/reservation.mapper';
import { reservationSchema, type ReservationRow } from '../schemas/reservation.schema';
import type { Sql } from '../db/sql';
import { isUuid } from '../adapters/uuid';

export class PgReservationRepository implements ReservationRepository {
  constructor(private readonly sql: Sql) {}

  async lockForWrite(
    locationId: string,
    externalId: string,
    providerId?: string,
  ): Promise<Reservation | null> {
    const owner = providerId ?? ownProviderId(locationId);
    if (!isUuid(locationId) || !isUuid(owner)) return null;
    const row = await this.sql.first<ReservationRow>(
      `SELECT * FROM reservations WHERE location_id = $1 AND provider_id = $3 AND external_id = $2 FOR UPDATE`,
      [locationId, externalId, owner],
    );
    return row === null ? null : reservationMapper.toDomain(row);
  }

  /**
   * A concurrent insert of the same (location, provider, externalId) waits for the first to
   * commit or roll back, then answers `duplicate` or inserts: never two rows, never an error.
   */
  async insert(reservation: Reservation, providerId?: string): Promise<'inserted' | 'duplicate'> {
    const owner = providerId ?? ownProviderId(reservation.locationId);
    const { columns, values, params } = this.sql.insertValues(reservationSchema, [
      reservationMapper.toOwnedRow(reservation, owner),
    ]);
    const inserted = await this.sql.rows(
      `INSERT INTO reservations (${columns}) VALUES ${values}
       ON CONFLICT (location_id, provider_id, external_id) DO NOTHING RETURNING id`,
      params,
    );
    return inserted.length === 1 ? 'inserted' : 'duplicate';
  }

  async update(reservation: Reservation): Promise<void> {
    const { id, location_id, ...fields } = reservationMapper.toPersistence(reservation);
    const changed = await this.sql.update(reservationSchema, { id, location_id }, fields);
    if (changed === 0) {
      throw new Error(`reservation ${id} of location ${location_id} is not stored; insert it first`);
    }
  }
}
