import { fail, ok } from '@pis/domain';
import { aLocation } from '@pis/domain/test-support';
import { aReservation } from '@pis/domain/test-support';
import { commit, useAdapters, type MakeAdapters } from './adapter-set';
import { givenLocationRow } from './fixtures';
import { anEvent } from './outbox.contract';

/** `UnitOfWork.run`: commit on success, roll back on a failure outcome or a throw, serialised writes. */
export function describeUnitOfWorkContract(name: string, make: MakeAdapters): void {
  describe(`${name}: unit of work contract`, () => {
    const adapters = useAdapters(make);

    it('When the work resolves to ok, then its writes commit and run answers the same outcome', async () => {
      const { uow, queries } = adapters();
      const location = aLocation();

      const outcome = await uow.run(async (tx) => {
        await tx.locations.insert(location);
        return ok({ answer: 42 });
      });

      expect(outcome).toEqual({ ok: true, value: { answer: 42 } });
      expect(await queries.access.findLocation(location.id)).toStrictEqual(location);
    });

    it('When the work resolves to a failure, then every write rolls back, outbox rows included, and run answers the failure', async () => {
      const { uow, queries } = adapters();
      const location = await givenLocationRow(uow);
      const reservation = aReservation(location.id);
      const another = aLocation();

      const outcome = await uow.run(async (tx) => {
        await tx.locations.insert(another);
        await tx.reservations.insert(reservation);
        await tx.outbox.append(location.id, [anEvent(1)]);
        return fail('duplicate_reservation', 'refused on purpose');
      });

      expect(outcome).toEqual({
        ok: false,
        code: 'duplicate_reservation',
        message: 'refused on purpose',
        occupiedBy: null,
      });
      expect(await queries.access.findLocation(another.id)).toBeNull();
      expect(await queries.reservations.findByExternalId(location.id, reservation.externalId)).toBeNull();
      const next = await commit(uow, (tx) => tx.outbox.append(location.id, [anEvent(2)]));
      expect(next.map((e) => e.sequence)).toEqual([1]);
    });

    it('When the work throws, then every write rolls back and run rejects with the same error', async () => {
      const { uow, queries } = adapters();
      const location = await givenLocationRow(uow);
      const reservation = aReservation(location.id);
      const error = new Error('the work broke');

      const run = uow.run(async (tx) => {
        await tx.reservations.insert(reservation);
        await tx.outbox.append(location.id, [anEvent(1)]);
        throw error;
      });

      await expect(run).rejects.toBe(error);
      expect(await queries.reservations.findByExternalId(location.id, reservation.externalId)).toBeNull();
      const next = await commit(uow, (tx) => tx.outbox.append(location.id, [anEvent(2)]));
      expect(next.map((e) => e.sequence)).toEqual([1]);
    });

    it('When the work reads what it wrote, then it sees its own writes before commit', async () => {
      const { uow } = adapters();
      const location = await givenLocationRow(uow);
      const reservation = aReservation(location.id);

      const seen = await commit(uow, async (tx) => {
        await tx.reservations.insert(reservation);
        return tx.reservations.lockForWrite(location.id, reservation.externalId);
      });

      expect(seen).toStrictEqual(reservation);
    });

    it('When the work has not finished, then the read side does not see its writes yet', async () => {
      const { uow, queries } = adapters();
      const location = await givenLocationRow(uow);
      const reservation = aReservation(location.id);

      const seenOutside = await commit(uow, async (tx) => {
        await tx.reservations.insert(reservation);
        return queries.reservations.findByExternalId(location.id, reservation.externalId);
      });

      expect(seenOutside).toBeNull();
      expect(await queries.reservations.findByExternalId(location.id, reservation.externalId)).toStrictEqual(
        reservation,
      );
    });

    it('When several units of work read, change and write one reservation at once, then none of the changes is lost', async () => {
      const { uow, queries } = adapters();
      const location = await givenLocationRow(uow);
      const reservation = aReservation(location.id, { covers: 1 });
      await commit(uow, (tx) => tx.reservations.insert(reservation));

      await Promise.all(
        Array.from({ length: 5 }, () =>
          commit(uow, async (tx) => {
            const current = await tx.reservations.lockForWrite(location.id, reservation.externalId);
            await tx.reservations.update({ ...current!, covers: current!.covers + 1 });
          }),
        ),
      );

      expect((await queries.reservations.findByExternalId(location.id, reservation.externalId))?.covers).toBe(
        6,
      );
    });

    it('When two units of work insert the same externalId at once, then one answers inserted and the other duplicate', async () => {
      const { uow } = adapters();
      const location = await givenLocationRow(uow);
      const first = aReservation(location.id);
      const second = aReservation(location.id, { externalId: first.externalId });

      const answers = await Promise.all([
        commit(uow, (tx) => tx.reservations.insert(first)),
        commit(uow, (tx) => tx.reservations.insert(second)),
      ]);

      expect([...answers].sort()).toEqual(['duplicate', 'inserted']);
    });
  });
}
