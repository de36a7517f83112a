import {
  reservationShape,
  type Instant,
  type Page,
  type Reservation,
  type ReservationCursor,
  type ReservationWriteResult,
} from '@pis/domain';
import type { ReservationListResponse, ReservationResponse, ReservationWriteResponse } from '../wire-types';
import { encodeReservationCursor } from './cursor';
import { WIRE_INSTANTS } from './instant';

/** The response form: every field present, date-times in UTC with milliseconds, nothing else (no locationId). */
const responseForm = reservationShape.omit('locationId');

export const toReservationResponse = (r: Reservation): ReservationResponse =>
  responseForm.encode(r, WIRE_INSTANTS);

export function toReservationWriteResponse(result: ReservationWriteResult): ReservationWriteResponse {
  return { outcome: result.outcome, reservation: toReservationResponse(result.reservation) };
}

export function toReservationListResponse(
  page: Page<Reservation, ReservationCursor>,
  generatedAt: Instant,
): ReservationListResponse {
  return {
    reservations: page.items.map(toReservationResponse),
    generatedAt: generatedAt.toIso(),
    nextCursor: page.next === null ? null : encodeReservationCursor(page.next),
  };
}
