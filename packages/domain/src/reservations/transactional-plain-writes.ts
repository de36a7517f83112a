import { checkTableIds } from '../floorplan/table-check';
import { ok } from '../kernel/outcome';
import type { Instant } from '../kernel/instant';
import type { UnitOfWork } from '../system/unit-of-work.port';
import type { Reservation, ReservationInput } from './reservation';
import type { PlainReservationWrites, PlainUpdateResult } from './reservation-repository.port';
import { decideReservationWrite } from './reservation-write';

/**
 * `PlainReservationWrites` over any unit of work, deciding with `decideReservationWrite`
 * and `checkTableIds` themselves: the reference the one-statement adapters are held to, and the implementation
 * for adapters that have no faster way.
 */
export function transactionalPlainWrites(uow: UnitOfWork): PlainReservationWrites {
  return {
    async create(reservation: Reservation, providerId?: string) {
      const outcome = await uow.run(async (tx) => ok(await tx.reservations.insert(reservation, providerId)));
      if (!outcome.ok) throw new Error(outcome.message);
      return outcome.value;
    },
    async update(locationId: string, input: ReservationInput, receivedAt: Instant, providerId?: string) {
      const outcome = await uow.run(async (tx) => {
        const stored = await tx.reservations.lockForWrite(locationId, input.externalId, providerId);
        if (stored === null) return ok<PlainUpdateResult>({ kind: 'missing' });
        const decision = decideReservationWrite(stored, input, {
          now: receivedAt,
          newId: stored.id,
          locationId,
        });
        if (decision.kind === 'stale') return ok<PlainUpdateResult>({ kind: 'stale', reservation: stored });
        if (input.tableIds.length > 0) {
          const published = await tx.floorPlans.publishedTables(locationId, input.tableIds);
          if (!checkTableIds(published, input.tableIds).ok) {
            return ok<PlainUpdateResult>({ kind: 'tables_refused', published });
          }
        }
        await tx.reservations.update(decision.next);
        return ok<PlainUpdateResult>({ kind: 'applied', reservation: decision.next });
      });
      if (!outcome.ok) throw new Error(outcome.message);
      return outcome.value;
    },
  };
}
