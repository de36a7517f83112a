import type { Instant } from '../shared/instant';
import type { Reservation, ReservationCursor } from './reservation';

/** Used inside a unit of work; every method is scoped to one location. */
export interface ReservationRepository {
  /** Reads and locks the reservation for the rest of the transaction (row lock). */
  lockForWrite(locationId: string, externalId: string): Promise<Reservation | null>;
  /** Inserts unless (locationId, externalId) exists; never overwrites. */
  insert(reservation: Reservation): Promise<'inserted' | 'duplicate'>;
  /** Overwrites the stored reservation (same id); the caller holds its lock. */
  update(reservation: Reservation): Promise<void>;
}

export interface ReservationWindowQuery {
  locationId: string;
  from: Instant;
  to: Instant;
  after: ReservationCursor | null;
  limit: number;
}

/** Read side, outside any transaction. */
export interface ReservationQueries {
  /** startsAt in [from, to), ordered by (startsAt, id), strictly after `after`, at most `limit`. */
  listWindow(query: ReservationWindowQuery): Promise<Reservation[]>;
  findByExternalId(locationId: string, externalId: string): Promise<Reservation | null>;
}
