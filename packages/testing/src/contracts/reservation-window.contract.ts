import { randomUUID } from 'node:crypto';
import type { Instant, Reservation } from '@pis/domain';
import { at } from '@pis/domain/test-support';
import { aReservation } from '@pis/domain/test-support';
import { commit, type AdapterSet } from './adapter-set';
import { givenLocationRow } from './fixtures';

/** `ReservationQueries.listWindow`, declared inside the reservation repository suite. */
export function describeReservationWindow(adapters: () => AdapterSet): void {
  describe('listWindow', () => {
    const from = at('2026-11-21T18:00:00Z');
    const to = at('2026-11-21T22:00:00Z');

    /** Inserts reservations starting at the given instants; returns them sorted by (startsAt, id). */
    async function givenStarts(locationId: string, starts: Instant[]): Promise<Reservation[]> {
      const rows = starts.map((startsAt) => aReservation(locationId, { startsAt }));
      await commit(adapters().uow, async (tx) => {
        for (const row of rows) await tx.reservations.insert(row);
      });
      return rows;
    }

    const byStartThenId = (a: Reservation, b: Reservation) =>
      a.startsAt.compare(b.startsAt) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

    it('When reservations start around the window edges, then only startsAt in [from, to) is listed, in (startsAt, id) order', async () => {
      const location = await givenLocationRow(adapters().uow);
      const rows = await givenStarts(location.id, [
        at('2026-11-21T17:59:59.999999Z'),
        from,
        at('2026-11-21T20:00:00.000001Z'),
        at('2026-11-21T19:00:00Z'),
        at('2026-11-21T21:59:59.999999Z'),
        to,
        at('2026-11-22T19:00:00Z'),
      ]);
      const inside = rows
        .filter((r) => !from.isAfter(r.startsAt) && to.isAfter(r.startsAt))
        .sort(byStartThenId);

      const listed = await adapters().queries.reservations.listWindow({
        locationId: location.id,
        from,
        to,
        after: null,
        limit: 100,
      });

      expect(inside).toHaveLength(4);
      expect(listed).toStrictEqual(inside);
    });

    it('When several reservations share startsAt, then they are ordered by id and the cursor resumes strictly after it', async () => {
      const location = await givenLocationRow(adapters().uow);
      const same = at('2026-11-21T19:30:00.000500Z');
      const rows = (
        await givenStarts(location.id, [
          same,
          same,
          same,
          same,
          at('2026-11-21T19:00:00Z'),
          at('2026-11-21T20:00:00Z'),
        ])
      ).sort(byStartThenId);
      const list = (after: { startsAt: Instant; id: string } | null, limit: number) =>
        adapters().queries.reservations.listWindow({ locationId: location.id, from, to, after, limit });

      const first = await list(null, 3);
      const cursor = { startsAt: first[2]!.startsAt, id: first[2]!.id };
      const second = await list(cursor, 3);
      const third = await list({ startsAt: second[2]!.startsAt, id: second[2]!.id }, 3);

      expect(first.map((r) => r.id)).toEqual(rows.slice(0, 3).map((r) => r.id));
      expect(second.map((r) => r.id)).toEqual(rows.slice(3, 6).map((r) => r.id));
      expect(third).toEqual([]);
    });

    it('When the limit is smaller than the window, then at most limit rows are listed', async () => {
      const location = await givenLocationRow(adapters().uow);
      await givenStarts(location.id, [
        at('2026-11-21T19:00:00Z'),
        at('2026-11-21T19:15:00Z'),
        at('2026-11-21T19:30:00Z'),
      ]);

      const listed = await adapters().queries.reservations.listWindow({
        locationId: location.id,
        from,
        to,
        after: null,
        limit: 2,
      });

      expect(listed.map((r) => r.startsAt.toIsoMicros())).toEqual([
        '2026-11-21T19:00:00.000000Z',
        '2026-11-21T19:15:00.000000Z',
      ]);
    });

    it('When another location has reservations in the window, then they are not listed', async () => {
      const mine = await givenLocationRow(adapters().uow);
      const theirs = await givenLocationRow(adapters().uow);
      const [own] = await givenStarts(mine.id, [at('2026-11-21T19:00:00Z')]);
      await givenStarts(theirs.id, [at('2026-11-21T19:00:00Z'), at('2026-11-21T19:05:00Z')]);

      const listed = await adapters().queries.reservations.listWindow({
        locationId: mine.id,
        from,
        to,
        after: null,
        limit: 10,
      });

      expect(listed).toStrictEqual([own]);
    });

    it('When a reservation is cancelled, then it is still listed', async () => {
      const location = await givenLocationRow(adapters().uow);
      const cancelled = aReservation(location.id, {
        status: 'cancelled',
        startsAt: at('2026-11-21T19:00:00Z'),
      });
      await commit(adapters().uow, (tx) => tx.reservations.insert(cancelled));

      const listed = await adapters().queries.reservations.listWindow({
        locationId: location.id,
        from,
        to,
        after: null,
        limit: 10,
      });

      expect(listed).toStrictEqual([cancelled]);
    });

    it('When the cursor names an id that is not stored, then the listing still resumes strictly after its position', async () => {
      const location = await givenLocationRow(adapters().uow);
      const same = at('2026-11-21T19:00:00Z');
      const rows = (await givenStarts(location.id, [same, same, at('2026-11-21T19:00:00.000001Z')])).sort(
        byStartThenId,
      );
      const between = { startsAt: same, id: randomUUID() };
      const expected = rows.filter(
        (r) => byStartThenId(r, { ...r, startsAt: between.startsAt, id: between.id }) > 0,
      );

      const listed = await adapters().queries.reservations.listWindow({
        locationId: location.id,
        from,
        to,
        after: between,
        limit: 10,
      });

      expect(listed.map((r) => r.id)).toEqual(expected.map((r) => r.id));
    });
  });
}
