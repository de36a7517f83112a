import {
  checkReservationInput,
  decideReservationWrite,
  canCreateInOneStatement,
} from '../../reservations/reservation-write';
import { ownProviderId } from '../../access/provider';
import { fail, ok } from '../../kernel/outcome';
import type { ReservationInput } from '../../reservations/reservation';
import type { ReservationWriteResult, UseCase } from '../use-case.types';
import { checkTablesAndSeat } from './check-tables-and-seat';

/** `providerId`: the writer, who owns what it creates (left out: the location's own provider). */
export type CreateReservation = UseCase<
  { locationId: string; providerId?: string; input: ReservationInput },
  ReservationWriteResult
>;

/**
 * POST: creates the reservation as the provider's, or `duplicate_reservation` when the provider
 * already holds its externalId at the location (another provider's `r-1` is another reservation).
 * The row is inserted first so that existence answers before tables and occupancy
 * (docs/reference/errors.md#check-order), also when two creates race; a later refusal rolls it
 * back. A plain write (no tables, not seated) is one insert and nothing else.
 */
export const createReservation: CreateReservation = async (deps, command) => {
  const { locationId, input } = command;
  const providerId = command.providerId ?? ownProviderId(locationId);
  const body = checkReservationInput(input);
  if (!body.ok) return body;
  const now = deps.clock.now();
  const decision = decideReservationWrite(null, input, { now, newId: deps.ids.uuid(), locationId });
  if (decision.kind === 'stale') throw new Error('a create is never stale');
  if (canCreateInOneStatement(input)) {
    return (await deps.plainWrites.create(decision.next, providerId)) === 'duplicate'
      ? duplicate(input.externalId)
      : ok({ outcome: 'applied', reservation: decision.next });
  }
  return deps.uow.run<ReservationWriteResult>(async (tx) => {
    if ((await tx.reservations.insert(decision.next, providerId)) === 'duplicate') {
      return duplicate(input.externalId);
    }
    const settled = await checkTablesAndSeat(deps, tx, decision.next, decision.orderIntent, now, providerId);
    if (!settled.ok) return settled;
    const { reservation, events } = settled.value;
    if (reservation.linkedOrderId !== decision.next.linkedOrderId) await tx.reservations.update(reservation);
    if (events.length > 0) await tx.outbox.append(locationId, events);
    return ok({ outcome: 'applied', reservation });
  });
};

const duplicate = (externalId: string) =>
  fail('duplicate_reservation', `reservation ${externalId} already exists; update it with PUT`);
