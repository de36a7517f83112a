import {
  addOrderItem,
  changeOrderCovers,
  finishOrderAs,
  MAX_INT32,
  moveOrderToTables,
  openWalkInOrder,
} from '../../src';
import { createInMemoryDeps } from '../in-memory/create-in-memory-deps';
import { givenLocation, givenPublishedLocation } from '../scenarios/published-location';
import { aWorld, expectOk, type World } from './use-case-world';

const open = (world: World, tableIds: string[], covers = 2) =>
  openWalkInOrder(world.deps, { locationId: world.locationId, tableIds, covers });
const move = (world: World, orderId: string, tableIds: string[]) =>
  moveOrderToTables(world.deps, { locationId: world.locationId, orderId, tableIds });
const addItem = (world: World, orderId: string, amountMinor: number, quantity = 1, label = 'Espresso') =>
  addOrderItem(world.deps, { locationId: world.locationId, orderId, label, amountMinor, quantity });
const finish = (world: World, orderId: string, how: 'closed' | 'voided') =>
  finishOrderAs(world.deps, { locationId: world.locationId, orderId, how });

describe('till orders: walk-ins (docs/reference/backoffice-api.md#walk-in-orders)', () => {
  it('When a walk-in opens, then the order is open with no spend and each table is occupied with a null reservationExternalId', async () => {
    const world = await aWorld();
    const [t1, t2] = world.tableIds as [string, string];
    const mark = world.mark();

    const order = expectOk(await open(world, [t1, t2], 3));

    expect(order).toMatchObject({
      tableIds: [t1, t2],
      covers: 3,
      spendMinor: 0,
      currency: 'EUR',
      status: 'open',
      reservationExternalId: null,
      check: { items: [], discounts: [], payments: [], totalMinor: 0, paidMinor: 0, balanceMinor: 0 },
      serviceStatus: null,
      openedAt: world.clock.now(),
      closedAt: null,
    });
    const occurredAt = world.clock.now().toIso();
    expect(world.eventsFrom(mark).map((e) => [e.type, e.data])).toEqual(
      [t1, t2].map((tableId) => [
        'table.occupied',
        { tableId, orderId: order.id, reservationExternalId: null, covers: 3, occurredAt },
      ]),
    );
  });

  it("When a walk-in opens, then it takes the location's currency", async () => {
    const t = createInMemoryDeps();
    const place = await givenPublishedLocation(t.deps, { tables: 1, currency: 'CHF' });

    const order = expectOk(
      await openWalkInOrder(t.deps, { locationId: place.locationId, tableIds: place.tableIds, covers: 1 }),
    );

    expect(order.currency).toBe('CHF');
  });

  it('When a walk-in targets a taken table, then 409 table_occupied names the holder and nothing opens', async () => {
    const world = await aWorld();
    const [t1, t2] = world.tableIds as [string, string];
    const first = expectOk(await open(world, [t1]));
    const mark = world.mark();

    const outcome = await open(world, [t2, t1]);

    expect(outcome).toMatchObject({
      ok: false,
      code: 'table_occupied',
      occupiedBy: { orderId: first.id, reservationExternalId: null },
    });
    expect(world.eventsFrom(mark)).toEqual([]);
    expect(world.store.holderOf(world.locationId, t2)).toBeNull();
  });

  it.each<[string, (world: World) => string[], string]>([
    ['no table', () => [], 'validation_failed'],
    ['one table twice', (w) => [w.tableIds[0]!, w.tableIds[0]!], 'validation_failed'],
    ['an unknown table', () => ['00000000-0000-4000-8000-00000000beef'], 'unknown_table_id'],
  ])('When a walk-in names %s, then %s', async (_, tables, code) => {
    const world = await aWorld();

    expect(await open(world, tables(world))).toMatchObject({ ok: false, code });
  });

  it('When a walk-in opens before the first publish, then 409 floorplan_not_published', async () => {
    const { deps } = createInMemoryDeps();
    const location = await givenLocation(deps);

    const outcome = await openWalkInOrder(deps, {
      locationId: location.id,
      tableIds: ['00000000-0000-4000-8000-0000000000aa'],
      covers: 2,
    });

    expect(outcome).toMatchObject({ ok: false, code: 'floorplan_not_published' });
  });

  it('When the location is unknown, then not_found', async () => {
    const world = await aWorld();

    const outcome = await openWalkInOrder(world.deps, {
      locationId: '00000000-0000-4000-8000-00000000cafe',
      tableIds: world.tableIds,
      covers: 2,
    });

    expect(outcome).toMatchObject({ ok: false, code: 'not_found' });
  });

  it('When an order moves, then freed (moved) for the tables it leaves and occupied for those it takes; shared tables stay quiet', async () => {
    const world = await aWorld();
    const [t1, t2, t3] = world.tableIds as [string, string, string];
    const order = expectOk(await open(world, [t1, t2], 4));
    world.clock.advance(1000);
    const mark = world.mark();

    const moved = expectOk(await move(world, order.id, [t2, t3]));

    const occurredAt = world.clock.now().toIso();
    expect(moved.tableIds).toEqual([t2, t3]);
    expect(world.eventsFrom(mark).map((e) => [e.type, e.data])).toEqual([
      [
        'table.freed',
        { tableId: t1, orderId: order.id, reservationExternalId: null, reason: 'moved', occurredAt },
      ],
      [
        'table.occupied',
        { tableId: t3, orderId: order.id, reservationExternalId: null, covers: 4, occurredAt },
      ],
    ]);
    expect([t1, t2, t3].map((t) => world.store.holderOf(world.locationId, t))).toEqual([
      null,
      order.id,
      order.id,
    ]);
  });

  it('When an order moves onto a taken table, then 409 names the holder and the order stays', async () => {
    const world = await aWorld();
    const [t1, t2] = world.tableIds as [string, string];
    const mine = expectOk(await open(world, [t1]));
    const theirs = expectOk(await open(world, [t2]));

    const outcome = await move(world, mine.id, [t2]);

    expect(outcome).toMatchObject({
      ok: false,
      code: 'table_occupied',
      occupiedBy: { orderId: theirs.id, reservationExternalId: null },
    });
    expect(world.store.holderOf(world.locationId, t1)).toBe(mine.id);
  });

  it('When items are added, then spend grows by amount times quantity and table.spend_updated carries the figures', async () => {
    const world = await aWorld();
    const [t1, t2] = world.tableIds as [string, string];
    const order = expectOk(await open(world, [t1, t2], 2));
    const mark = world.mark();

    expectOk(await addItem(world, order.id, 1250, 2, 'Pizza'));
    const after = expectOk(await addItem(world, order.id, 300));

    expect(after).toMatchObject({
      spendMinor: 2800,
      check: {
        items: [
          { label: 'Pizza', amountMinor: 1250, quantity: 2, taxRateBps: 0, course: 'other', voided: false },
          { label: 'Espresso', amountMinor: 300, quantity: 1, taxRateBps: 0, course: 'other', voided: false },
        ],
        totalMinor: 2800,
      },
    });
    expect(world.eventsFrom(mark).map((e) => [e.type, e.data])).toEqual(
      [2500, 2800].map((spendMinor) => [
        'table.spend_updated',
        {
          tableIds: [t1, t2],
          orderId: order.id,
          reservationExternalId: null,
          spendMinor,
          currency: 'EUR',
          covers: 2,
          occurredAt: world.clock.now().toIso(),
          totals: {
            subtotalMinor: spendMinor,
            discountMinor: 0,
            taxMinor: 0,
            tipMinor: 0,
            paidMinor: 0,
            balanceMinor: spendMinor,
          },
        },
      ]),
    );
  });

  it('When an item would push the spend past 2147483647, then 422 validation_failed and the spend stays', async () => {
    const world = await aWorld();
    const order = expectOk(await open(world, [world.tableIds[0]!]));
    expectOk(await addItem(world, order.id, MAX_INT32 - 10));

    const outcome = await addItem(world, order.id, 11);

    expect(outcome).toMatchObject({ ok: false, code: 'validation_failed' });
    expect((await world.deps.queries.orders.findById(world.locationId, order.id))?.spendMinor).toBe(
      MAX_INT32 - 10,
    );
  });

  it('When covers change, then table.spend_updated reports them; the same covers again emit nothing', async () => {
    const world = await aWorld();
    const order = expectOk(await open(world, [world.tableIds[0]!], 2));
    const mark = world.mark();

    expectOk(
      await changeOrderCovers(world.deps, { locationId: world.locationId, orderId: order.id, covers: 6 }),
    );
    expectOk(
      await changeOrderCovers(world.deps, { locationId: world.locationId, orderId: order.id, covers: 6 }),
    );

    expect(
      world.eventsFrom(mark).map((e) => [e.type, e.type === 'table.spend_updated' && e.data.covers]),
    ).toEqual([['table.spend_updated', 6]]);
  });

  it.each<['closed' | 'voided']>([['closed'], ['voided']])(
    'When an order is %s, then it is done at now and table.freed carries that reason for each table',
    async (how) => {
      const world = await aWorld();
      const [t1, t2] = world.tableIds as [string, string];
      const order = expectOk(await open(world, [t1, t2]));
      world.clock.advance(3_600_000);
      const mark = world.mark();

      const done = expectOk(await finish(world, order.id, how));

      const occurredAt = world.clock.now().toIso();
      expect(done).toMatchObject({ status: how, closedAt: world.clock.now() });
      expect(
        world
          .eventsFrom(mark)
          .map((e) => [e.type, e.data])
          .slice(0, 2),
      ).toEqual(
        [t1, t2].map((tableId) => [
          'table.freed',
          { tableId, orderId: order.id, reservationExternalId: null, reason: how, occurredAt },
        ]),
      );
      expect(
        world
          .eventsFrom(mark)
          .slice(2)
          .map((e) => e.type),
      ).toEqual(how === 'closed' ? ['order.closed'] : []);
      expect([
        world.store.holderOf(world.locationId, t1),
        world.store.holderOf(world.locationId, t2),
      ]).toEqual([null, null]);
    },
  );

  it.each<[string, (world: World, orderId: string) => Promise<unknown>]>([
    ['closed again', (w, id) => finish(w, id, 'closed')],
    ['voided', (w, id) => finish(w, id, 'voided')],
    ['moved', (w, id) => move(w, id, [w.tableIds[1]!])],
    [
      'given new covers',
      (w, id) => changeOrderCovers(w.deps, { locationId: w.locationId, orderId: id, covers: 9 }),
    ],
  ])('When a closed order is %s, then 422 validation_failed and nothing changes', async (_, act) => {
    const world = await aWorld();
    const order = expectOk(await open(world, [world.tableIds[0]!]));
    const closed = expectOk(await finish(world, order.id, 'closed'));
    const mark = world.mark();

    const outcome = await act(world, order.id);

    expect(outcome).toMatchObject({ ok: false, code: 'validation_failed' });
    expect(await world.deps.queries.orders.findById(world.locationId, order.id)).toStrictEqual(closed);
    expect(world.eventsFrom(mark)).toEqual([]);
  });

  it("When another location's order id is used, then not_found", async () => {
    const world = await aWorld();
    const other = await aWorld();
    const foreign = expectOk(await open(other, [other.tableIds[0]!]));

    expect(await addItem(world, foreign.id, 100)).toMatchObject({ ok: false, code: 'not_found' });
    expect(await finish(world, foreign.id, 'closed')).toMatchObject({ ok: false, code: 'not_found' });
  });
});
