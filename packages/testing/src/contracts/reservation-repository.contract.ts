import { Instant, type Reservation } from '@pis/domain';
import { at } from '@pis/domain/test-support';
import { anOrder } from '@pis/domain/test-support';
import { aFullReservationInput, aReservation } from '@pis/domain/test-support';
import { commit, useAdapters, type MakeAdapters } from './adapter-set';
import { describeReservationWindow } from './reservation-window.contract';
import { givenDraftTables, givenLocationRow } from './fixtures';

/** `ReservationRepository` and `ReservationQueries`. */
export function describeReservationRepositoryContract(name: string, make: MakeAdapters): void {
  describe(`${name}: reservation repository contract`, () => {
    const adapters = useAdapters(make);

    /** A reservation with every field filled, linked to a real order (the column is a foreign key). */
    async function aLinkedFullReservation(): Promise<Reservation> {
      const { uow } = adapters();
      const { location, tableIds } = await givenDraftTables(uow, 2);
      const order = anOrder(location.id, tableIds, {
        status: 'closed',
        closedAt: at('2026-11-21T21:00:00Z'),
      });
      await commit(uow, (tx) => tx.orders.insert(order));
      return aReservation(location.id, {
        ...aFullReservationInput({ status: 'seated', tableIds }),
        linkedOrderId: order.id,
        arrivedAt: at('2026-11-21T19:02:03.456789Z'),
        receivedAt: at('2026-11-21T19:02:04.000001Z'),
      });
    }

    it('When a reservation with every field filled is inserted, then it reads back field for field, microseconds included', async () => {
      const { uow, queries } = adapters();
      const reservation = await aLinkedFullReservation();

      const answer = await commit(uow, (tx) => tx.reservations.insert(reservation));

      expect(answer).toBe('inserted');
      const found = await queries.reservations.findByExternalId(
        reservation.locationId,
        reservation.externalId,
      );
      expect(found).toStrictEqual(reservation);
      expect(found?.startsAt).toBeInstanceOf(Instant);
      expect(found?.startsAt.toIsoMicros()).toBe('2026-11-21T19:00:00.123456Z');
      expect(found?.guest?.recentVisits[0]?.occurredAt.toIsoMicros()).toBe('2026-10-01T20:15:00.000001Z');
      const locked = await commit(uow, (tx) =>
        tx.reservations.lockForWrite(reservation.locationId, reservation.externalId),
      );
      expect(locked).toStrictEqual(reservation);
    });

    it('When a minimal reservation is inserted, then its nulls and empty arrays read back as nulls and empty arrays', async () => {
      const { uow, queries } = adapters();
      const location = await givenLocationRow(uow);
      const reservation = aReservation(location.id, {
        partyName: null,
        endsAt: null,
        tableIds: [],
        guest: null,
        internalNote: null,
        prepayment: null,
        posOrderId: null,
        linkedOrderId: null,
        arrivedAt: null,
      });

      await commit(uow, (tx) => tx.reservations.insert(reservation));

      expect(await queries.reservations.findByExternalId(location.id, reservation.externalId)).toStrictEqual(
        reservation,
      );
    });

    it('When a guest and a prepayment have empty lists and null members, then they read back unchanged', async () => {
      const { uow, queries } = adapters();
      const location = await givenLocationRow(uow);
      const reservation = aReservation(location.id, {
        guest: {
          name: null,
          phone: null,
          email: null,
          vip: false,
          firstVisit: true,
          visitCount: null,
          occasion: null,
          allergies: null,
          tags: [],
          memberSince: null,
          averageSpendMinor: null,
          noShowCount: null,
          recentVisits: [],
        },
        prepayment: { prepaidMinor: 0, currency: 'GBP', items: [], imprint: null },
      });

      await commit(uow, (tx) => tx.reservations.insert(reservation));

      expect(await queries.reservations.findByExternalId(location.id, reservation.externalId)).toStrictEqual(
        reservation,
      );
    });

    it('When the location already holds the externalId, then insert answers duplicate and the stored one stays', async () => {
      const { uow, queries } = adapters();
      const location = await givenLocationRow(uow);
      const first = aReservation(location.id, { covers: 2 });
      await commit(uow, (tx) => tx.reservations.insert(first));
      const second = aReservation(location.id, { externalId: first.externalId, covers: 9 });

      const answer = await commit(uow, (tx) => tx.reservations.insert(second));

      expect(answer).toBe('duplicate');
      expect(await queries.reservations.findByExternalId(location.id, first.externalId)).toStrictEqual(first);
    });

    it('When two locations use the same externalId, then each holds its own and neither sees the other', async () => {
      const { uow, queries } = adapters();
      const a = await givenLocationRow(uow);
      const b = await givenLocationRow(uow);
      const inA = aReservation(a.id, { externalId: 'shared-1', covers: 2 });
      const inB = aReservation(b.id, { externalId: 'shared-1', covers: 5 });

      const answers = [
        await commit(uow, (tx) => tx.reservations.insert(inA)),
        await commit(uow, (tx) => tx.reservations.insert(inB)),
      ];

      expect(answers).toEqual(['inserted', 'inserted']);
      expect(await queries.reservations.findByExternalId(a.id, 'shared-1')).toStrictEqual(inA);
      expect(await queries.reservations.findByExternalId(b.id, 'shared-1')).toStrictEqual(inB);
      const c = await givenLocationRow(uow);
      expect(await queries.reservations.findByExternalId(c.id, 'shared-1')).toBeNull();
      expect(await commit(uow, (tx) => tx.reservations.lockForWrite(c.id, 'shared-1'))).toBeNull();
    });

    it('When a reservation is updated, then every field is overwritten and the other location keeps its own', async () => {
      const { uow, queries } = adapters();
      const full = await aLinkedFullReservation();
      const other = await givenLocationRow(uow);
      const plain = aReservation(full.locationId, { externalId: full.externalId });
      const twin = aReservation(other.id, { externalId: full.externalId });
      await commit(uow, async (tx) => {
        await tx.reservations.insert(plain);
        await tx.reservations.insert(twin);
      });
      const next: Reservation = { ...full, id: plain.id };

      await commit(uow, async (tx) => {
        await tx.reservations.lockForWrite(full.locationId, full.externalId);
        await tx.reservations.update(next);
      });

      expect(await queries.reservations.findByExternalId(full.locationId, full.externalId)).toStrictEqual(
        next,
      );
      expect(await queries.reservations.findByExternalId(other.id, full.externalId)).toStrictEqual(twin);
    });

    it('When a filled reservation is updated to nulls and empty arrays, then they replace the old values', async () => {
      const { uow, queries } = adapters();
      const full = await aLinkedFullReservation();
      await commit(uow, (tx) => tx.reservations.insert(full));
      const emptied: Reservation = {
        ...full,
        status: 'cancelled',
        partyName: null,
        endsAt: null,
        tableIds: [],
        guest: null,
        internalNote: null,
        prepayment: null,
        posOrderId: null,
        updatedAt: at('2026-11-22T00:00:00.000002Z'),
      };

      await commit(uow, (tx) => tx.reservations.update(emptied));

      expect(await queries.reservations.findByExternalId(full.locationId, full.externalId)).toStrictEqual(
        emptied,
      );
    });

    describeReservationWindow(adapters);
  });
}
