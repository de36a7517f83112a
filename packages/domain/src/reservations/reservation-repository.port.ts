import type { PublishedTables } from '../floorplan/floor-plan-repository.port';
import type { Instant } from '../kernel/instant';
import type { Reservation, ReservationCursor, ReservationInput } from './reservation';

/**
 * Used inside a unit of work; every method is scoped to one location and one provider: a
 * reservation belongs to the provider that created it, and `externalId` is unique per
 * location and provider. `providerId` left out is the location's own (`ownProviderId`).
 */
export interface ReservationRepository {
  /** Reads and locks the provider's reservation for the rest of the transaction (row lock). */
  lockForWrite(locationId: string, externalId: string, providerId?: string): Promise<Reservation | null>;
  /** Inserts as the provider's unless (locationId, providerId, externalId) exists; never overwrites. */
  insert(reservation: Reservation, providerId?: string): Promise<'inserted' | 'duplicate'>;
  /** Overwrites the stored reservation (same id); the caller holds its lock. */
  update(reservation: Reservation): Promise<void>;
}

export interface ReservationWindowQuery {
  locationId: string;
  /** Only this provider's reservations; left out: the location's own provider's. */
  providerId?: string;
  from: Instant;
  to: Instant;
  after: ReservationCursor | null;
  limit: number;
}

/** Read side, outside any transaction; scoped like `ReservationRepository`. */
export interface ReservationQueries {
  /** startsAt in [from, to), ordered by (startsAt, id), strictly after `after`, at most `limit`. */
  listWindow(query: ReservationWindowQuery): Promise<Reservation[]>;
  findByExternalId(locationId: string, externalId: string, providerId?: string): Promise<Reservation | null>;
}

export type PlainUpdateResult =
  | { kind: 'missing' }
  | { kind: 'stale'; reservation: Reservation }
  | { kind: 'applied'; reservation: Reservation }
  /**
   * Newer, but a named table is not an active table of the latest published plan: nothing
   * applied. `published` is what the plan holds of the named tables (null before the first
   * publish), for `checkTableIds` to name the refusal.
   */
  | { kind: 'tables_refused'; published: PublishedTables | null };

/**
 * Writes that touch nothing but the reservation, each in one atomic step outside any unit
 * of work: the hot path of a provider's traffic. `create` takes plain writes (see
 * `canCreateInOneStatement`: no tables, not seated); `update` takes every write that leaves orders
 * alone (`canUpdateInOneStatement`: not seated), table ids included. An adapter must decide
 * exactly what `decideReservationWrite` and `checkTableIds` decide for such a write, in
 * the contract's order (existence, staleness, tables), under concurrent writes too (the
 * port contract suite holds every adapter to it).
 */
export interface PlainReservationWrites {
  /** Inserts as the provider's unless (locationId, providerId, externalId) exists; never overwrites. */
  create(reservation: Reservation, providerId?: string): Promise<'inserted' | 'duplicate'>;
  /**
   * Last-write-wins update of the stored reservation by the write `input` received at
   * `receivedAt`: `missing` when there is none, `stale` (nothing applied, the stored one
   * returned) when `input.updatedAt` is not after the stored one, `tables_refused` when
   * `checkTableIds` refuses its table ids against the latest published plan, else `applied`.
   * A stale write takes no lock and writes nothing: a concurrent lock on the row does not
   * delay it. A write that was newer when it arrived but meets a newer one committed while it
   * waited is `stale` with that newest version. Only the provider's own reservation is
   * considered (`providerId` left out: the location's own provider's).
   */
  update(
    locationId: string,
    input: ReservationInput,
    receivedAt: Instant,
    providerId?: string,
  ): Promise<PlainUpdateResult>;
}
