import {
  addOrderItem,
  addOrderPayment,
  createReservation,
  finishOrderAs,
  moveOrderToTables,
  openWalkInOrder,
  updateReservation,
  type Deps,
  type Outcome,
  type ReservationInput,
} from '@pis/domain';
import { aReservationInput, at, expectOk, givenPublishedLocation, plusMillis } from '@pis/testing';
import { committedEvents, depsOver, type Store } from './harness';

const base = at('2026-11-20T10:00:00Z');

function shuffled<T>(items: T[]): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

const codeOf = (o: Outcome<unknown>) => (o.ok ? 'ok' : o.code);

async function openOrdersOn(store: () => Store, tableId: string): Promise<number> {
  const [row] = await store().dataSource.query(
    `SELECT count(*)::int AS n FROM orders WHERE status = 'open' AND $1 = ANY(table_ids)`,
    [tableId],
  );
  return row.n;
}

/** Every open order holds exactly its tables, and every held table is held by the open order standing on it. */
async function occupancyIsConsistent(store: () => Store, locationId: string): Promise<void> {
  const mismatches = await store().dataSource.query(
    `SELECT t.id, t.open_order_id, o.id AS order_id
     FROM dining_tables t
     FULL JOIN (SELECT id, unnest(table_ids) AS table_id FROM orders WHERE location_id = $1 AND status = 'open') o
       ON o.table_id = t.id
     WHERE (t.location_id = $1 OR t.id IS NULL) AND t.open_order_id IS DISTINCT FROM o.id`,
    [locationId],
  );
  expect(mismatches).toEqual([]);
}

async function sequencesAreGapless(store: () => Store, locationId: string): Promise<void> {
  const sequences = (await committedEvents(store().dataSource, locationId)).map((e) => e.sequence);
  expect(sequences).toEqual(sequences.map((_, i) => i + 1));
}

/** Use cases racing over the adapters of one store; every test works in a location of its own. */
export function describeUseCaseRaces(engine: 'PostgreSQL' | 'PGlite', store: () => Store): void {
  describe(`${engine}: use cases racing over the adapters`, () => {
    let deps: Deps;
    beforeAll(() => {
      deps = depsOver(store());
    });

    it('When 50 updates with shuffled updatedAt hit one reservation at once, then each is applied or stale and the newest is stored', async () => {
      const place = await givenPublishedLocation(deps, { tables: 2 });
      const input = aReservationInput({ updatedAt: base });
      expectOk(await createReservation(deps, { locationId: place.locationId, input }));
      const versions = shuffled(Array.from({ length: 50 }, (_, i) => i + 1));

      const results = await Promise.all(
        versions.map((n) =>
          updateReservation(deps, {
            locationId: place.locationId,
            externalId: input.externalId,
            input: { ...input, covers: n, updatedAt: plusMillis(base, n) },
          }),
        ),
      );

      const outcomes = results.map((r) => expectOk(r).outcome);
      expect(outcomes.filter((o) => o !== 'applied' && o !== 'stale')).toEqual([]);
      expect(outcomes[versions.indexOf(50)]).toBe('applied');
      const stored = await store().queries.reservations.findByExternalId(place.locationId, input.externalId);
      expect(stored?.covers).toBe(50);
      expect(stored?.updatedAt).toStrictEqual(plusMillis(base, 50));
    });

    it('When 20 reservations are seated at once on one table, then one is applied and 19 are table_occupied naming it', async () => {
      const place = await givenPublishedLocation(deps, { tables: 2 });
      const table = place.tableIds[0]!;
      const inputs = Array.from({ length: 20 }, () =>
        aReservationInput({ status: 'seated', tableIds: [table] }),
      );

      const results = await Promise.all(
        inputs.map((input) => createReservation(deps, { locationId: place.locationId, input })),
      );

      const winners = results.filter((r) => r.ok).map((r) => expectOk(r).reservation);
      expect(winners).toHaveLength(1);
      const winner = winners[0]!;
      const losers = results.filter((r) => !r.ok);
      expect(losers).toHaveLength(19);
      for (const loser of losers) {
        expect(loser).toMatchObject({
          code: 'table_occupied',
          occupiedBy: { orderId: winner.linkedOrderId, reservationExternalId: winner.externalId },
        });
      }
      expect(await openOrdersOn(store, table)).toBe(1);
      const loserIds = inputs.map((i) => i.externalId).filter((id) => id !== winner.externalId);
      const leftovers = await Promise.all(
        loserIds.map((id) => store().queries.reservations.findByExternalId(place.locationId, id)),
      );
      expect(leftovers.every((r) => r === null)).toBe(true);
      await sequencesAreGapless(store, place.locationId);
    });

    it('When a seat races a walk-in on the same table, then exactly one order opens and the other names it', async () => {
      const place = await givenPublishedLocation(deps, { tables: 10 });
      const booked = await Promise.all(
        place.tableIds.map(async () => {
          const input = aReservationInput({ updatedAt: base });
          expectOk(await createReservation(deps, { locationId: place.locationId, input }));
          return input;
        }),
      );

      const rounds = await Promise.all(
        place.tableIds.map(async (table, i) => {
          const seat: ReservationInput = {
            ...booked[i]!,
            status: 'seated',
            tableIds: [table],
            updatedAt: plusMillis(base, 1),
          };
          const [seated, walkIn] = await Promise.all([
            updateReservation(deps, {
              locationId: place.locationId,
              externalId: seat.externalId,
              input: seat,
            }),
            openWalkInOrder(deps, { locationId: place.locationId, tableIds: [table], covers: 2 }),
          ]);
          return { table, seat, seated, walkIn };
        }),
      );

      for (const { table, seat, seated, walkIn } of rounds) {
        expect([codeOf(seated), codeOf(walkIn)].sort()).toEqual(['ok', 'table_occupied']);
        const expectedHolder = seated.ok
          ? { orderId: seated.value.reservation.linkedOrderId, reservationExternalId: seat.externalId }
          : { orderId: expectOk(walkIn).id, reservationExternalId: null };
        expect(seated.ok ? walkIn : seated).toMatchObject({ occupiedBy: expectedHolder });
        expect(await openOrdersOn(store, table)).toBe(1);
      }
      await occupancyIsConsistent(store, place.locationId);
    });

    it('When seats, moves, walk-ins, items and closes run concurrently on a few tables, then none deadlocks and occupancy stays consistent', async () => {
      const place = await givenPublishedLocation(deps, { tables: 6 });
      const loc = place.locationId;
      const pick = (n: number) => shuffled(place.tableIds).slice(0, n);
      const reservations = await Promise.all(
        Array.from({ length: 6 }, async () => {
          const input = aReservationInput({ updatedAt: base });
          expectOk(await createReservation(deps, { locationId: loc, input }));
          return input;
        }),
      );
      let version = 0;
      const allowed = new Set(['ok', 'table_occupied', 'validation_failed', 'not_found', 'order_closed']);
      const seen: string[] = [];

      for (let round = 0; round < 6; round++) {
        const open = await store().queries.orders.list(loc, 'open');
        const anOpen = () =>
          open[Math.floor(Math.random() * open.length)]?.id ?? '00000000-0000-4000-8000-000000000000';
        const operations: Promise<Outcome<unknown>>[] = [
          ...reservations.map((r) =>
            updateReservation(deps, {
              locationId: loc,
              externalId: r.externalId,
              input: {
                ...r,
                status: 'seated',
                tableIds: pick(1 + (round % 2)),
                updatedAt: plusMillis(base, ++version),
              },
            }),
          ),
          openWalkInOrder(deps, { locationId: loc, tableIds: pick(1), covers: 2 }),
          openWalkInOrder(deps, { locationId: loc, tableIds: pick(2), covers: 3 }),
          moveOrderToTables(deps, { locationId: loc, orderId: anOpen(), tableIds: pick(2) }),
          moveOrderToTables(deps, { locationId: loc, orderId: anOpen(), tableIds: pick(1) }),
          addOrderItem(deps, {
            locationId: loc,
            orderId: anOpen(),
            label: 'Soup',
            amountMinor: 450,
            quantity: 1,
          }),
          finishOrderAs(deps, { locationId: loc, orderId: anOpen(), how: 'closed' }),
          finishOrderAs(deps, { locationId: loc, orderId: anOpen(), how: 'voided' }),
        ];

        const settled = await Promise.allSettled(operations);

        expect(settled.filter((s) => s.status === 'rejected')).toEqual([]);
        for (const s of settled) if (s.status === 'fulfilled') seen.push(codeOf(s.value));
        await occupancyIsConsistent(store, loc);
      }

      expect(seen.filter((code) => !allowed.has(code))).toEqual([]);
      expect(seen).toContain('ok');
      await sequencesAreGapless(store, loc);
    });

    it('When a command is refused after another took its table, then it leaves no outbox row and consumes no sequence', async () => {
      const place = await givenPublishedLocation(deps, { tables: 1 });
      const table = place.tableIds[0]!;
      expectOk(await openWalkInOrder(deps, { locationId: place.locationId, tableIds: [table], covers: 2 }));
      const before = await committedEvents(store().dataSource, place.locationId);

      const refusedWalkIn = await openWalkInOrder(deps, {
        locationId: place.locationId,
        tableIds: [table],
        covers: 2,
      });
      const refusedSeat = await createReservation(deps, {
        locationId: place.locationId,
        input: aReservationInput({ status: 'seated', tableIds: [table] }),
      });
      const [closing] = await store().queries.orders.list(place.locationId, 'open');
      expectOk(
        await finishOrderAs(deps, { locationId: place.locationId, orderId: closing!.id, how: 'closed' }),
      );

      expect([codeOf(refusedWalkIn), codeOf(refusedSeat)]).toEqual(['table_occupied', 'table_occupied']);
      const after = await committedEvents(store().dataSource, place.locationId);
      expect(after.slice(0, before.length)).toStrictEqual(before);
      expect(after.slice(before.length).map((e) => [e.type, e.sequence])).toEqual([
        ['table.freed', before.length + 1],
        ['order.closed', before.length + 2],
      ]);
    });

    it('When 50 item and payment writes hit one order at once, then none is lost and the totals of the last spend_updated equal the stored check', async () => {
      const place = await givenPublishedLocation(deps, { tables: 1 });
      const order = expectOk(
        await openWalkInOrder(deps, { locationId: place.locationId, tableIds: place.tableIds, covers: 4 }),
      );
      const till = { locationId: place.locationId, orderId: order.id };
      const writes = shuffled(
        Array.from({ length: 50 }, (_, n) =>
          n % 2 === 0
            ? () =>
                addOrderItem(deps, {
                  ...till,
                  label: `Dish ${n}`,
                  amountMinor: 100 + n,
                  quantity: 1 + (n % 3),
                  taxRateBps: 1000,
                })
            : () => addOrderPayment(deps, { ...till, amountMinor: 50 + n, tipMinor: n, tender: 'card' }),
        ),
      );

      const results = await Promise.all(writes.map((write) => write()));

      expect(results.map(codeOf).filter((c) => c !== 'ok')).toEqual([]);
      const stored = (await store().queries.orders.findById(place.locationId, order.id))!;
      expect(stored.check.items.map((i) => i.label).sort()).toEqual(
        Array.from({ length: 25 }, (_, k) => `Dish ${2 * k}`).sort(),
      );
      expect(stored.check.payments).toHaveLength(25);
      const spends = (await committedEvents(store().dataSource, place.locationId)).filter(
        (e) => e.type === 'table.spend_updated',
      );
      expect(spends).toHaveLength(50);
      const last = spends.at(-1)!;
      const { subtotalMinor, discountMinor, taxMinor, tipMinor, paidMinor, balanceMinor, totalMinor } =
        stored.check;
      expect(last.data).toMatchObject({
        spendMinor: totalMinor,
        totals: { subtotalMinor, discountMinor, taxMinor, tipMinor, paidMinor, balanceMinor },
      });
      // In sequence order the check only grows: the events follow the commits.
      const figures = spends.map((e) => (e.type === 'table.spend_updated' ? e.data.totals : null)!);
      figures.slice(1).forEach((f, i) => {
        expect(f.subtotalMinor + f.paidMinor).toBeGreaterThan(
          figures[i]!.subtotalMinor + figures[i]!.paidMinor,
        );
      });
      await sequencesAreGapless(store, place.locationId);
    });

    it('When a close races item writes on one order, then no item lands on the closed order and order.closed carries the stored check', async () => {
      const place = await givenPublishedLocation(deps, { tables: 1 });
      const seen = new Set<string>();
      for (let round = 0; round < 8; round++) {
        const order = expectOk(
          await openWalkInOrder(deps, { locationId: place.locationId, tableIds: place.tableIds, covers: 2 }),
        );
        const till = { locationId: place.locationId, orderId: order.id };
        const item = (n: number) =>
          addOrderItem(deps, { ...till, label: `Round ${round} #${n}`, amountMinor: 500, quantity: 1 });

        const [before, closing, after] = await Promise.all([
          Promise.all([0, 1, 2].map(item)),
          finishOrderAs(deps, { ...till, how: 'closed' }),
          Promise.all([3, 4, 5].map(item)),
        ]);

        expectOk(closing);
        const answered = [...before, ...after];
        answered.forEach((r) => seen.add(codeOf(r)));
        expect(answered.map(codeOf).filter((c) => c !== 'ok' && c !== 'order_closed')).toEqual([]);
        const stored = (await store().queries.orders.findById(place.locationId, order.id))!;
        expect(stored.status).toBe('closed');
        expect(stored.check.items).toHaveLength(answered.filter((r) => r.ok).length);
        const closed = (await committedEvents(store().dataSource, place.locationId)).filter(
          (e) => e.type === 'order.closed' && e.data.orderId === order.id,
        );
        expect(closed).toHaveLength(1);
        expect(closed[0]!.data).toMatchObject({
          check: { items: stored.check.items.map((i) => ({ id: i.id })) },
        });
      }
      await sequencesAreGapless(store, place.locationId);
    });
  });
}
