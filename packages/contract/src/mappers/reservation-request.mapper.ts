import { reservationInputShape, type ReservationInput } from '@pis/domain';
import type { ReservationRequest } from '../wire-types';
import { WIRE_INSTANTS } from './instant';

/** A validated POST/PUT body as the domain's input: every default filled, every date-time an Instant. */
export const toReservationInput = (body: ReservationRequest): ReservationInput =>
  reservationInputShape.decode(body, WIRE_INSTANTS);
