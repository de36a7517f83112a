import { EntitySchema } from 'typeorm';
import { guestShape, prepaymentShape, recentVisitShape, reservationShape, type Plain } from '@pis/domain';
import { rowForm, type RowOf } from '../stored-form';
import { instant, int, jsonb, primaryUuid, text, textArray, uuid } from './columns';

/**
 * The row and the jsonb documents inside it are derived from the domain's shapes; instants
 * are text with microseconds in both (`STORED_INSTANTS`).
 */
export const reservationColumns = rowForm(reservationShape);
export type ReservationRow = RowOf<typeof reservationColumns>;
/**
 * The row as inserted: the reservation and, when a connected provider created it, that
 * provider (null: the location's own). The table derives `provider_id`, the owner every query
 * scopes by, from the two.
 */
export type OwnedReservationRow = ReservationRow & { connected_provider_id: string | null };
export type GuestJson = Plain<typeof guestShape>;
export type RecentVisitJson = Plain<typeof recentVisitShape>;
export type PrepaymentJson = Plain<typeof prepaymentShape>;

export const reservationSchema = new EntitySchema<OwnedReservationRow>({
  name: 'reservation',
  tableName: 'reservations',
  columns: {
    id: primaryUuid(),
    location_id: uuid(),
    connected_provider_id: uuid({ nullable: true }),
    external_id: text(),
    status: text(),
    party_name: text(true),
    covers: int(),
    starts_at: instant(),
    ends_at: instant(true),
    table_ids: textArray(),
    guest: jsonb(true),
    internal_note: text(true),
    prepayment: jsonb(true),
    pos_order_id: text(true),
    updated_at: instant(),
    linked_order_id: uuid({ nullable: true }),
    arrived_at: instant(true),
    received_at: instant(),
  },
});
