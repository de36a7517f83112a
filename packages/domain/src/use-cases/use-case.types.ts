import type { Reservation, WriteOutcome } from '../reservations/reservation';
import type { Outcome } from '../kernel/outcome';
import type { Deps } from './deps';

/**
 * The signature of every use case. Each is a function of its ports and one command;
 * it returns an Outcome with the contract's codes and never an HTTP status.
 */
export type UseCase<C, R> = (deps: Deps, command: C) => Promise<Outcome<R>>;

export interface ReservationWriteResult {
  outcome: WriteOutcome;
  reservation: Reservation;
}

export interface Page<T, C> {
  items: T[];
  /** Where the next page starts; null on the last page. */
  next: C | null;
}
