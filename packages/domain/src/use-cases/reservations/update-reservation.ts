import { checkTableIds } from '../../floorplan/table-check';
import {
  checkReservationInput,
  decideReservationWrite,
  canUpdateInOneStatement,
  isStale,
} from '../../reservations/reservation-write';
import type { PublishedTables } from '../../floorplan/floor-plan-repository.port';
import { ownProviderId } from '../../access/provider';
import { fail, ok, type Failure } from '../../kernel/outcome';
import type { ReservationInput } from '../../reservations/reservation';
import type { ReservationWriteResult, UseCase } from '../use-case.types';
import { checkTablesAndSeat } from './check-tables-and-seat';

/**
 * `externalId` is the path one; a different `input.externalId` is `validation_failed`.
 * `providerId`: the writer, who reaches only its own reservations (left out: the location's
 * own provider); another provider's externalId is `unknown_reservation` to it.
 */
export type UpdateReservation = UseCase<
  { locationId: string; providerId?: string; externalId: string; input: ReservationInput },
  ReservationWriteResult
>;

/**
 * PUT: full-body last-write-wins. A stale write answers with the stored reservation and
 * checks nothing more, so an old retry stays safe after the plan changed; it is decided on
 * a read that takes no lock (a blind retry costs no row lock and no commit). A newer write
 * locks the stored row and decides again under the lock, so concurrent writes to one
 * reservation serialise and the newest `updatedAt` ends up stored. A write that leaves
 * orders alone (any status but seated, with or without tables) is one atomic statement
 * through `PlainReservationWrites`, which follows the same rule.
 */
export const updateReservation: UpdateReservation = async (deps, command) => {
  const { locationId, externalId, input } = command;
  const providerId = command.providerId ?? ownProviderId(locationId);
  const body = checkReservationInput(input, externalId);
  if (!body.ok) return body;
  const now = deps.clock.now();
  if (canUpdateInOneStatement(input)) {
    const written = await deps.plainWrites.update(locationId, input, now, providerId);
    if (written.kind === 'missing') return unknown(externalId);
    if (written.kind === 'tables_refused') return refusedTables(written.published, input.tableIds);
    return ok({ outcome: written.kind, reservation: written.reservation });
  }
  const seen = await deps.queries.reservations.findByExternalId(locationId, externalId, providerId);
  if (seen === null) return unknown(externalId);
  if (isStale(seen, input)) return ok({ outcome: 'stale', reservation: seen });
  return deps.uow.run<ReservationWriteResult>(async (tx) => {
    const stored = await tx.reservations.lockForWrite(locationId, externalId, providerId);
    if (stored === null) return unknown(externalId);
    const decision = decideReservationWrite(stored, input, { now, newId: stored.id, locationId });
    if (decision.kind === 'stale') return ok({ outcome: 'stale', reservation: decision.stored });
    const settled = await checkTablesAndSeat(deps, tx, decision.next, decision.orderIntent, now, providerId);
    if (!settled.ok) return settled;
    const { reservation, events } = settled.value;
    await tx.reservations.update(reservation);
    if (events.length > 0) await tx.outbox.append(locationId, events);
    return ok({ outcome: 'applied', reservation });
  });
};

const unknown = (externalId: string) =>
  fail('unknown_reservation', `reservation ${externalId} does not exist; create it with POST first`);

function refusedTables(published: PublishedTables | null, tableIds: readonly string[]): Failure {
  const check = checkTableIds(published, tableIds);
  if (check.ok) throw new Error('the adapter refused table ids that checkTableIds accepts');
  return check;
}
