import { randomUUID } from 'node:crypto';
import { ok, withLines, type Order, type TableHolder } from '@pis/domain';
import { at } from '@pis/domain/test-support';
import { aDiscount, anItem, anOrder, aPayment } from '@pis/domain/test-support';
import { commit, useAdapters, type MakeAdapters } from './adapter-set';
import { givenDraftTables, givenLocationRow } from './fixtures';

const byTable = (a: TableHolder, b: TableHolder) =>
  a.tableId < b.tableId ? -1 : a.tableId > b.tableId ? 1 : 0;

/** `OrderRepository` (with table occupancy) and `OrderQueries`. */
export function describeOrderRepositoryContract(name: string, make: MakeAdapters): void {
  describe(`${name}: order repository contract`, () => {
    const adapters = useAdapters(make);

    const holders = (locationId: string, tableIds: string[]) =>
      commit(adapters().uow, async (tx) =>
        [...(await tx.orders.lockTables(locationId, tableIds))].sort(byTable),
      );
    const holder = (order: Order, tableId: string): TableHolder => ({
      tableId,
      orderId: order.id,
      reservationExternalId: order.reservationExternalId,
    });

    it('When an order with a full check is inserted, then it reads back field for field, microseconds included', async () => {
      const { location, tableIds } = await givenDraftTables(adapters().uow, 2);
      const order = anOrder(location.id, tableIds, {
        covers: 5,
        currency: 'GBP',
        reservationExternalId: 'R-77',
        serviceStatus: 'mains',
        lines: {
          items: [
            anItem({ label: 'Pizza', amountMinor: 1200, taxRateBps: 2000, course: 'main' }),
            anItem({ label: 'Lemonade', amountMinor: 575, quantity: 2, course: 'drink' }),
            anItem({ label: 'Sent back', amountMinor: 900, voided: true }),
          ],
          discounts: [aDiscount({ label: 'Birthday', amountMinor: 350 })],
          payments: [
            aPayment({ amountMinor: 1000, tender: 'deposit', paidAt: at('2026-11-21T19:00:00.123457Z') }),
            aPayment({ amountMinor: 1000, tipMinor: 150, tender: 'card' }),
          ],
        },
        openedAt: at('2026-11-21T19:00:00.000001Z'),
      });
      expect(order.check).toMatchObject({ subtotalMinor: 2350, totalMinor: 2000, paidMinor: 2000 });

      await commit(adapters().uow, (tx) => tx.orders.insert(order));

      expect(await adapters().queries.orders.findById(location.id, order.id)).toStrictEqual(order);
      expect(await commit(adapters().uow, (tx) => tx.orders.lockById(location.id, order.id))).toStrictEqual(
        order,
      );
    });

    it('When a check of 200 lines is stored, then it reads back whole and in order', async () => {
      const { location, tableIds } = await givenDraftTables(adapters().uow, 1);
      const items = Array.from({ length: 180 }, (_, n) =>
        anItem({
          label: `Line ${n}`,
          amountMinor: 100 + n,
          quantity: 1 + (n % 3),
          taxRateBps: n % 2 ? 1000 : 0,
        }),
      );
      const order = anOrder(location.id, tableIds, {
        lines: {
          items,
          discounts: Array.from({ length: 5 }, () => aDiscount()),
          payments: Array.from({ length: 15 }, () => aPayment({ amountMinor: 10 })),
        },
      });
      await commit(adapters().uow, (tx) => tx.orders.insert(order));
      const paid = withLines(order, {
        ...order.check,
        items: order.check.items.map((i, n) => (n % 7 ? i : { ...i, voided: true })),
      });

      await commit(adapters().uow, (tx) => tx.orders.update(paid));

      const [read] = await adapters().queries.orders.list(location.id, 'open');
      expect(read).toStrictEqual(paid);
      expect(read!.check.items.map((i) => i.label)).toEqual(items.map((i) => i.label));
    });

    it('When an open order is inserted, then lockTables names it as the holder of each of its tables and of no other', async () => {
      const { location, tableIds } = await givenDraftTables(adapters().uow, 4);
      const [t1, t2, t3, t4] = tableIds as [string, string, string, string];
      const seated = anOrder(location.id, [t1, t2], { reservationExternalId: 'R-1' });
      const walkIn = anOrder(location.id, [t3]);

      await commit(adapters().uow, async (tx) => {
        await tx.orders.insert(seated);
        await tx.orders.insert(walkIn);
      });

      expect(await holders(location.id, [t1, t2, t3, t4])).toEqual(
        [holder(seated, t1), holder(seated, t2), holder(walkIn, t3)].sort(byTable),
      );
      expect(await holders(location.id, [t4])).toEqual([]);
      expect(holder(walkIn, t3).reservationExternalId).toBeNull();
    });

    it('When lockTables is asked for no tables or the same table twice, then it answers once per held table', async () => {
      const { location, tableIds } = await givenDraftTables(adapters().uow, 2);
      const order = anOrder(location.id, [tableIds[0]!]);
      await commit(adapters().uow, (tx) => tx.orders.insert(order));

      expect(await holders(location.id, [])).toEqual([]);
      expect(await holders(location.id, [tableIds[0]!, tableIds[0]!, tableIds[1]!])).toEqual([
        holder(order, tableIds[0]!),
      ]);
    });

    it('When a closed order is inserted, then its tables stay free', async () => {
      const { location, tableIds } = await givenDraftTables(adapters().uow, 1);
      const closed = anOrder(location.id, tableIds, {
        status: 'closed',
        closedAt: at('2026-11-21T21:00:00Z'),
      });

      await commit(adapters().uow, (tx) => tx.orders.insert(closed));

      expect(await holders(location.id, tableIds)).toEqual([]);
    });

    it('When an open order is moved, then it leaves its old tables free and holds the new ones', async () => {
      const { location, tableIds } = await givenDraftTables(adapters().uow, 3);
      const [t1, t2, t3] = tableIds as [string, string, string];
      const order = anOrder(location.id, [t1, t2]);
      await commit(adapters().uow, (tx) => tx.orders.insert(order));
      const moved: Order = { ...order, tableIds: [t2, t3] };

      await commit(adapters().uow, (tx) => tx.orders.update(moved));

      expect(await holders(location.id, tableIds)).toEqual(
        [holder(order, t2), holder(order, t3)].sort(byTable),
      );
      expect(await adapters().queries.orders.findById(location.id, order.id)).toStrictEqual(moved);
    });

    it.each(['closed', 'voided'] as const)(
      'When an open order becomes %s, then its tables are freed and it reads back so',
      async (status) => {
        const { location, tableIds } = await givenDraftTables(adapters().uow, 2);
        const order = anOrder(location.id, tableIds);
        await commit(adapters().uow, (tx) => tx.orders.insert(order));
        const done: Order = { ...order, status, closedAt: at('2026-11-21T22:15:00.000123Z') };

        await commit(adapters().uow, (tx) => tx.orders.update(done));

        expect(await holders(location.id, tableIds)).toEqual([]);
        expect(await adapters().queries.orders.findById(location.id, order.id)).toStrictEqual(done);
      },
    );

    it('When an order is freed, then another order can take its table', async () => {
      const { location, tableIds } = await givenDraftTables(adapters().uow, 1);
      const first = anOrder(location.id, tableIds);
      await commit(adapters().uow, (tx) => tx.orders.insert(first));
      await commit(adapters().uow, (tx) =>
        tx.orders.update({ ...first, status: 'closed', closedAt: at('2026-11-21T20:00:00Z') }),
      );
      const second = anOrder(location.id, tableIds, { reservationExternalId: 'R-2' });

      await commit(adapters().uow, (tx) => tx.orders.insert(second));

      expect(await holders(location.id, tableIds)).toEqual([holder(second, tableIds[0]!)]);
    });

    it('When the check, covers and service status of an open order change, then the update keeps its tables held', async () => {
      const { location, tableIds } = await givenDraftTables(adapters().uow, 1);
      const order = anOrder(location.id, tableIds);
      await commit(adapters().uow, (tx) => tx.orders.insert(order));
      const changed: Order = withLines(
        { ...order, covers: 6, serviceStatus: 'starters' },
        {
          items: [anItem({ label: 'Soup', amountMinor: 450, quantity: 2 })],
          discounts: [],
          payments: [aPayment()],
        },
      );

      await commit(adapters().uow, (tx) => tx.orders.update(changed));

      expect(await holders(location.id, tableIds)).toEqual([holder(order, tableIds[0]!)]);
      expect(await adapters().queries.orders.findById(location.id, order.id)).toStrictEqual(changed);
      expect(changed.spendMinor).toBe(900);
    });

    it("When another location asks for an order or a table, then it sees nothing of this location's", async () => {
      const { location, tableIds } = await givenDraftTables(adapters().uow, 1);
      const order = anOrder(location.id, tableIds);
      await commit(adapters().uow, (tx) => tx.orders.insert(order));
      const other = await givenLocationRow(adapters().uow);

      expect(await holders(other.id, tableIds)).toEqual([]);
      expect(await commit(adapters().uow, (tx) => tx.orders.lockById(other.id, order.id))).toBeNull();
      expect(await adapters().queries.orders.findById(other.id, order.id)).toBeNull();
      expect(await adapters().queries.orders.list(other.id, null)).toEqual([]);
    });

    it('When orders are listed, then they come newest first (openedAt, then id) and filter by status', async () => {
      const { location, tableIds } = await givenDraftTables(adapters().uow, 4);
      const same = at('2026-11-21T20:00:00.000001Z');
      const orders = [
        anOrder(location.id, [tableIds[0]!], { openedAt: at('2026-11-21T19:00:00Z') }),
        anOrder(location.id, [tableIds[1]!], { openedAt: same }),
        anOrder(location.id, [tableIds[2]!], { openedAt: same }),
        anOrder(location.id, [tableIds[3]!], {
          openedAt: at('2026-11-21T18:00:00Z'),
          status: 'closed',
          closedAt: at('2026-11-21T18:30:00Z'),
        }),
      ];
      await commit(adapters().uow, async (tx) => {
        for (const order of orders) await tx.orders.insert(order);
      });
      const [, b, c] = orders as [Order, Order, Order, Order];
      const tied = b.id > c.id ? [b, c] : [c, b];

      const all = await adapters().queries.orders.list(location.id, null);
      const open = await adapters().queries.orders.list(location.id, 'open');
      const closed = await adapters().queries.orders.list(location.id, 'closed');

      expect(all.map((o) => o.id)).toEqual([...tied, orders[0]!, orders[3]!].map((o) => o.id));
      expect(open.map((o) => o.id)).toEqual([...tied, orders[0]!].map((o) => o.id));
      expect(closed).toStrictEqual([orders[3]]);
      expect(await adapters().queries.orders.list(location.id, 'voided')).toEqual([]);
    });

    it('When two units of work claim the same free table at once, then exactly one opens an order on it', async () => {
      const { location, tableIds } = await givenDraftTables(adapters().uow, 1);
      const claim = () =>
        adapters().uow.run(async (tx) => {
          const taken = await tx.orders.lockTables(location.id, tableIds);
          if (taken.length > 0) return ok('refused' as const);
          await tx.orders.insert(anOrder(location.id, tableIds, { id: randomUUID() }));
          return ok('opened' as const);
        });

      const answers = await Promise.all([claim(), claim(), claim()]);

      expect(answers.map((a) => (a.ok ? a.value : a.code)).sort()).toEqual(['opened', 'refused', 'refused']);
      expect(await adapters().queries.orders.list(location.id, 'open')).toHaveLength(1);
    });
  });
}
