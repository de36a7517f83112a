import { randomUUID } from 'node:crypto';
import { fail, ok, type DeliverableEvent } from '@pis/domain';
import { aLocation, aReservation, anEvent, commit, givenLocationRow } from '@pis/testing';
import { createPersistence } from '../../src';
import { committedEvents, testCipher, type Store } from './harness';

/**
 * What `PgUnitOfWork` promises beyond the port contract, on either engine. `engine`
 * names the one place they differ: what a read-side query sees inside a unit of work.
 */
export function describeUnitOfWorkBehaviour(engine: 'PostgreSQL' | 'PGlite', store: () => Store): void {
  describe(`${engine}: PgUnitOfWork`, () => {
    it('When the work resolves to ok, then its writes commit and run answers its outcome', async () => {
      const location = aLocation();

      const outcome = await store().uow.run(async (tx) => {
        await tx.locations.insert(location);
        return ok('done');
      });

      expect(outcome).toEqual({ ok: true, value: 'done' });
      expect(await store().queries.access.findLocation(location.id)).toStrictEqual(location);
    });

    it('When the work resolves to a failure, then nothing it wrote stays: no row, no outbox event, no sequence', async () => {
      const location = await givenLocationRow(store().uow);
      const reservation = aReservation(location.id);

      const outcome = await store().uow.run(async (tx) => {
        await tx.reservations.insert(reservation);
        await tx.outbox.append(location.id, [anEvent(1), anEvent(2)]);
        return fail('validation_failed', 'refused after writing');
      });

      expect(outcome.ok).toBe(false);
      expect(
        await store().queries.reservations.findByExternalId(location.id, reservation.externalId),
      ).toBeNull();
      expect(await committedEvents(store().dataSource, location.id)).toEqual([]);
      const next = await commit(store().uow, (tx) => tx.outbox.append(location.id, [anEvent(3)]));
      expect(next.map((e) => e.sequence)).toEqual([1]);
    });

    it('When the work throws, then run rejects with that error and nothing it wrote stays', async () => {
      const location = await givenLocationRow(store().uow);
      const error = new Error('broken on purpose');

      const run = store().uow.run(async (tx) => {
        await tx.outbox.append(location.id, [anEvent(1)]);
        throw error;
      });

      await expect(run).rejects.toBe(error);
      expect(await committedEvents(store().dataSource, location.id)).toEqual([]);
    });

    it('When many runs fail or throw, then each gave its connection back and the next run still gets one', async () => {
      const location = await givenLocationRow(store().uow);
      const runs = Array.from({ length: 12 }, (_, i) =>
        store().uow.run(async (tx) => {
          await tx.reservations.lockForWrite(location.id, 'nobody');
          if (i % 2 === 0) throw new Error(`throw ${i}`);
          return fail('not_found', `fail ${i}`);
        }),
      );

      const settled = await Promise.allSettled(runs);

      expect(settled.filter((s) => s.status === 'rejected')).toHaveLength(6);
      expect(await commit(store().uow, async () => 'still serving')).toBe('still serving');
    });

    it('When a query of the read side runs inside a unit of work, then it answers without waiting for another connection', async () => {
      const location = await givenLocationRow(store().uow);
      const reservation = aReservation(location.id);

      const seen = await commit(store().uow, async (tx) => {
        await tx.reservations.insert(reservation);
        return store().queries.reservations.findByExternalId(location.id, reservation.externalId);
      });

      // PostgreSQL reads on a pool of their own (committed state only); PGlite is one session.
      expect(seen).toStrictEqual(engine === 'PGlite' ? reservation : null);
    });

    it('When concurrent units of work read, change and write one reservation, then they serialise and none is lost', async () => {
      const location = await givenLocationRow(store().uow);
      const reservation = aReservation(location.id, { covers: 1 });
      await commit(store().uow, (tx) => tx.reservations.insert(reservation));

      await Promise.all(
        Array.from({ length: 8 }, () =>
          commit(store().uow, async (tx) => {
            const current = await tx.reservations.lockForWrite(location.id, reservation.externalId);
            await tx.reservations.update({ ...current!, covers: current!.covers + 1 });
          }),
        ),
      );

      const stored = await store().queries.reservations.findByExternalId(location.id, reservation.externalId);
      expect(stored?.covers).toBe(9);
    });

    it('When two units of work insert the same externalId at once, then one inserts and the other answers duplicate', async () => {
      const location = await givenLocationRow(store().uow);
      const first = aReservation(location.id);
      const second = aReservation(location.id, { externalId: first.externalId });

      const answers = await Promise.all([
        commit(store().uow, (tx) => tx.reservations.insert(first)),
        commit(store().uow, (tx) => tx.reservations.insert(second)),
      ]);

      expect([...answers].sort()).toEqual(['duplicate', 'inserted']);
    });

    describe('onEventsCommitted', () => {
      it('When a unit of work that appended events commits, then each listener hears them once, after the commit', async () => {
        const location = await givenLocationRow(store().uow);
        const heard: { events: DeliverableEvent[]; committed: number }[] = [];
        const off = store().uow.onEventsCommitted((events) => {
          heard.push({ events, committed: -1 });
          void committedEvents(store().dataSource, location.id).then(
            (rows) => (heard[0]!.committed = rows.length),
          );
        });

        const appended = await commit(store().uow, async (tx) => [
          ...(await tx.outbox.append(location.id, [anEvent(1)])),
          ...(await tx.outbox.append(location.id, [anEvent(2)])),
        ]);
        off();
        await new Promise((resolve) => setTimeout(resolve, 100));

        expect(heard).toHaveLength(1);
        expect(heard[0]!.events).toStrictEqual(appended);
        expect(heard[0]!.committed).toBe(2);
      });

      it('When a unit of work rolls back or appends nothing, then no listener is called', async () => {
        const location = await givenLocationRow(store().uow);
        const listener = jest.fn();
        const off = store().uow.onEventsCommitted(listener);

        await store().uow.run(async (tx) => {
          await tx.outbox.append(location.id, [anEvent(1)]);
          return fail('validation_failed', 'rolled back');
        });
        await commit(store().uow, (tx) => tx.locations.findById(location.id));
        off();

        expect(listener).not.toHaveBeenCalled();
      });

      it('When a listener throws, then the command still succeeds and the error goes to onListenerError', async () => {
        const reported: unknown[] = [];
        const { uow } = createPersistence(store().db, {
          cipher: testCipher,
          onListenerError: (error) => reported.push(error),
        });
        const location = await givenLocationRow(uow);
        const later = jest.fn();
        uow.onEventsCommitted(() => {
          throw new Error('listener broke');
        });
        uow.onEventsCommitted(later);

        const outcome = await uow.run(async (tx) => ok(await tx.outbox.append(location.id, [anEvent(1)])));

        expect(outcome.ok).toBe(true);
        expect(reported).toEqual([new Error('listener broke')]);
        expect(later).toHaveBeenCalledTimes(1);
      });
    });

    it('When a work id is not a UUID, then the repositories answer not found instead of failing', async () => {
      const location = await givenLocationRow(store().uow);

      const answers = await commit(store().uow, async (tx) => ({
        reservation: await tx.reservations.lockForWrite('not-a-uuid', 'R-1'),
        order: await tx.orders.lockById(location.id, 'order-1'),
        holders: await tx.orders.lockTables(location.id, ['t-1', randomUUID().toUpperCase()]),
        plan: await tx.floorPlans.publishedTables('nope', ['t-1']),
        revoked: await tx.apiKeys.revoke(location.id, 'key-1', null),
        endpoint: await tx.webhookEndpoints.lock('x'),
        redelivered: await tx.webhookDeliveries.requestRedelivery(location.id, 'd-1'),
      }));

      expect(answers).toEqual({
        reservation: null,
        order: null,
        holders: [],
        plan: null,
        revoked: false,
        endpoint: null,
        redelivered: false,
      });
    });
  });
}
