import { aLocation, aReservation, at, commit } from '@pis/testing';
import { reservationSchema } from '../../src/schemas/reservation.schema';
import type { Store } from './harness';

/** Instants keep their microseconds through every path: adapters, raw SQL and TypeORM's repository API. */
export function describeInstantRoundTrip(engine: string, store: () => Store): void {
  describe(`${engine}: instants`, () => {
    const startsAt = at('2026-11-21T19:00:00.123456Z');

    it('When 2026-11-21T19:00:00.123456Z is written, then the database holds, and every read answers, all six digits', async () => {
      const location = aLocation();
      const reservation = aReservation(location.id, {
        startsAt,
        updatedAt: at('2026-11-21T18:59:59.999999Z'),
      });
      await commit(store().uow, async (tx) => {
        await tx.locations.insert(location);
        await tx.reservations.insert(reservation);
      });

      const viaQueries = await store().queries.reservations.findByExternalId(
        location.id,
        reservation.externalId,
      );
      const viaLock = await commit(store().uow, (tx) =>
        tx.reservations.lockForWrite(location.id, reservation.externalId),
      );
      const viaTypeorm = await store().dataSource.manager.findOneByOrFail(reservationSchema, {
        id: reservation.id,
      });
      const [stored] = await store().dataSource.query(
        `SELECT extract(microseconds FROM starts_at)::int AS micros_of_minute,
                to_char(starts_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US') AS utc
         FROM reservations WHERE id = $1`,
        [reservation.id],
      );

      expect(viaQueries?.startsAt.toIsoMicros()).toBe('2026-11-21T19:00:00.123456Z');
      expect(viaQueries?.startsAt).toStrictEqual(startsAt);
      expect(viaLock?.updatedAt.toIsoMicros()).toBe('2026-11-21T18:59:59.999999Z');
      expect(viaTypeorm.starts_at).toBe('2026-11-21 19:00:00.123456+00');
      expect(stored).toEqual({ micros_of_minute: 123456, utc: '2026-11-21T19:00:00.123456' });
    });

    it('When two instants differ by one microsecond, then the database orders and compares them so', async () => {
      const [earlier, later] = [at('2026-11-21T19:00:00.000001Z'), at('2026-11-21T19:00:00.000002Z')];

      const [row] = await store().dataSource.query('SELECT $1::timestamptz < $2::timestamptz AS less', [
        earlier.toIsoMicros(),
        later.toIsoMicros(),
      ]);

      expect(row).toEqual({ less: true });
    });
  });
}
