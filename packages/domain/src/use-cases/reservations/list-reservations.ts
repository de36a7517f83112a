import { ownProviderId } from '../../access/provider';
import { fail, ok } from '../../kernel/outcome';
import { pageOf } from '../page';
import type { Reservation, ReservationCursor } from '../../reservations/reservation';
import type { Instant } from '../../kernel/instant';
import type { Page, UseCase } from '../use-case.types';

/** `providerId`: the reader, who lists only its own reservations (left out: the location's own provider). */
export type ListReservations = UseCase<
  {
    locationId: string;
    providerId?: string;
    from: Instant;
    to: Instant;
    limit: number;
    after: ReservationCursor | null;
  },
  Page<Reservation, ReservationCursor>
>;

export const MAX_WINDOW_MICROS = 31n * 24n * 3600n * 1_000_000n;

/** The reconciliation window: startsAt in [from, to), at most 31 days, by (startsAt, id). */
export const listReservations: ListReservations = async (
  deps,
  { locationId, providerId, from, to, limit, after },
) => {
  if (!to.isAfter(from)) {
    return fail('validation_failed', '`from` must be before `to`', [
      { path: '/to', message: 'must be after from' },
    ]);
  }
  if (to.epochMicros - from.epochMicros > MAX_WINDOW_MICROS) {
    return fail('validation_failed', 'the window may span at most 31 days', [
      { path: '/to', message: 'at most 31 days after from' },
    ]);
  }
  const rows = await deps.queries.reservations.listWindow({
    locationId,
    providerId: providerId ?? ownProviderId(locationId),
    from,
    to,
    after,
    limit: limit + 1,
  });
  return ok(pageOf(rows, limit, (last) => ({ startsAt: last.startsAt, id: last.id })));
};
