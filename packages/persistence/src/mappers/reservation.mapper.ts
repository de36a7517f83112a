import { ownProviderId, type Reservation } from '@pis/domain';
import {
  reservationColumns,
  type OwnedReservationRow,
  type ReservationRow,
} from '../schemas/reservation.schema';

/** The row form is derived from the domain's reservation shape (guest and prepayment as jsonb). */
export const reservationMapper = {
  toDomain: (row: ReservationRow): Reservation => reservationColumns.fromRow(row),
  toPersistence: (r: Reservation): ReservationRow => reservationColumns.toRow(r),
  /** The row as inserted: the reservation in the scope of the provider that owns it. */
  toOwnedRow: (r: Reservation, providerId: string): OwnedReservationRow => ({
    ...reservationColumns.toRow(r),
    connected_provider_id: providerId === ownProviderId(r.locationId) ? null : providerId,
  }),
};
