import type { Reservation } from '@pis/domain';
import { reservationColumns, type ReservationRow } from '../schemas/reservation.schema';

/** The row form is derived from the domain's reservation shape (guest and prepayment as jsonb). */
export const reservationMapper = {
  toDomain: (row: ReservationRow): Reservation => reservationColumns.fromRow(row),
  toPersistence: (r: Reservation): ReservationRow => reservationColumns.toRow(r),
};
