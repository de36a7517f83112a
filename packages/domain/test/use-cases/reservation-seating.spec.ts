import {
  finishOrderAs,
  moveOrderToTables,
  openWalkInOrder,
  type ReservationInput,
  type ReservationStatus,
} from '../../src';
import { aReservationInput } from '../builders';
import { aWorld, expectOk, later, type World } from './use-case-world';

/** A reservation seated on `tables`; returns its last write and its order id. */
async function givenSeated(world: World, tables: string[], covers = 2, externalId?: string) {
  const input = await world.given({ ...(externalId ? { externalId } : {}), status: 'booked', covers });
  const seat = later(input, { status: 'seated', tableIds: tables });
  const result = expectOk(await world.put(seat));
  return { input: seat, orderId: result.reservation.linkedOrderId! };
}

const walkIn = async (world: World, tables: string[]) =>
  expectOk(await openWalkInOrder(world.deps, { locationId: world.locationId, tableIds: tables, covers: 2 }));

const order = (world: World, id: string) => world.deps.queries.orders.findById(world.locationId, id);
const reservation = (world: World, input: ReservationInput) =>
  world.deps.queries.reservations.findByExternalId(world.locationId, input.externalId);

describe('reservation writes and the till order (docs/reference/provider-api.md#tables-orders-and-occupancy)', () => {
  it('When a booked reservation is written seated, then an order opens on its tables, linkedOrderId is set, each table is occupied', async () => {
    const world = await aWorld();
    const [t1, t2] = world.tableIds as [string, string];
    const input = await world.given({ externalId: 'R-9', covers: 3 });
    const mark = world.mark();

    const result = expectOk(await world.put(later(input, { status: 'seated', tableIds: [t1, t2] })));

    const orderId = result.reservation.linkedOrderId!;
    expect(await order(world, orderId)).toMatchObject({
      status: 'open',
      tableIds: [t1, t2],
      covers: 3,
      reservationExternalId: 'R-9',
    });
    expect(world.eventsFrom(mark).map((e) => [e.type, e.data])).toEqual(
      [t1, t2].map((tableId) => [
        'table.occupied',
        { tableId, orderId, reservationExternalId: 'R-9', covers: 3, occurredAt: world.clock.now().toIso() },
      ]),
    );
    expect([world.store.holderOf(world.locationId, t1), world.store.holderOf(world.locationId, t2)]).toEqual([
      orderId,
      orderId,
    ]);
  });

  it.each<
    [
      string,
      (world: World, table: string) => Promise<{ orderId: string; reservationExternalId: string | null }>,
    ]
  >([
    [
      'a walk-in',
      async (world, table) => ({ orderId: (await walkIn(world, [table])).id, reservationExternalId: null }),
    ],
    [
      'another reservation',
      async (world, table) => ({
        orderId: (await givenSeated(world, [table], 2, 'R-holder')).orderId,
        reservationExternalId: 'R-holder',
      }),
    ],
  ])(
    'When a seat targets a table held by %s, then 409 table_occupied names the holder and nothing is applied',
    async (_, hold) => {
      const world = await aWorld();
      const [free, taken] = world.tableIds as [string, string];
      const holder = await hold(world, taken);
      const input = await world.given({ covers: 2 });
      const before = await reservation(world, input);
      const mark = world.mark();

      const outcome = await world.put(later(input, { status: 'seated', tableIds: [free, taken] }));

      expect(outcome).toMatchObject({ ok: false, code: 'table_occupied', occupiedBy: holder });
      expect(await reservation(world, input)).toStrictEqual(before);
      expect(world.eventsFrom(mark)).toEqual([]);
      expect(world.store.holderOf(world.locationId, free)).toBeNull();
      expect(world.store.orders(world.locationId)).toHaveLength(1);
    },
  );

  it.each<ReservationStatus>(['booked', 'confirmed', 'arrived'])(
    'When a %s reservation names a taken table, then it is accepted: a plan, not occupancy',
    async (status) => {
      const world = await aWorld();
      const [taken] = world.tableIds as [string];
      const walk = await walkIn(world, [taken]);
      const created = await world.create(aReservationInput({ status, tableIds: [taken] }));
      const mark = world.mark();

      const updated = expectOk(await world.put(later(await world.given(), { status, tableIds: [taken] })));

      expect(expectOk(created).reservation).toMatchObject({ status, tableIds: [taken], linkedOrderId: null });
      expect(updated).toMatchObject({
        outcome: 'applied',
        reservation: { status, tableIds: [taken], linkedOrderId: null },
      });
      expect(world.eventsFrom(mark)).toEqual([]);
      expect(world.store.holderOf(world.locationId, taken)).toBe(walk.id);
    },
  );

  it('When a seated write changes tableIds, then the order moves: freed (moved) for tables left, occupied for tables taken', async () => {
    const world = await aWorld();
    const [t1, t2, t3] = world.tableIds as [string, string, string];
    const { input, orderId } = await givenSeated(world, [t1, t2], 2, 'R-mv');
    world.clock.advance(60_000);
    const mark = world.mark();

    expectOk(await world.put(later(input, { tableIds: [t2, t3] })));

    const now = world.clock.now().toIso();
    expect(world.eventsFrom(mark).map((e) => [e.type, e.data])).toEqual([
      [
        'table.freed',
        { tableId: t1, orderId, reservationExternalId: 'R-mv', reason: 'moved', occurredAt: now },
      ],
      ['table.occupied', { tableId: t3, orderId, reservationExternalId: 'R-mv', covers: 2, occurredAt: now }],
    ]);
    expect((await order(world, orderId))?.tableIds).toEqual([t2, t3]);
    expect([t1, t2, t3].map((t) => world.store.holderOf(world.locationId, t))).toEqual([
      null,
      orderId,
      orderId,
    ]);
  });

  it('When a seated write moves onto a taken table, then 409 names the holder and neither reservation nor order changes', async () => {
    const world = await aWorld();
    const [t1, t2] = world.tableIds as [string, string];
    const { input, orderId } = await givenSeated(world, [t1]);
    const walk = await walkIn(world, [t2]);
    const before = await reservation(world, input);
    const mark = world.mark();

    const outcome = await world.put(later(input, { tableIds: [t2], covers: 6 }));

    expect(outcome).toMatchObject({
      ok: false,
      code: 'table_occupied',
      occupiedBy: { orderId: walk.id, reservationExternalId: null },
    });
    expect(await reservation(world, input)).toStrictEqual(before);
    expect(await order(world, orderId)).toMatchObject({ tableIds: [t1], covers: 2, status: 'open' });
    expect(world.eventsFrom(mark)).toEqual([]);
  });

  it('When a seated write changes covers, then the order takes them and table.spend_updated reports them', async () => {
    const world = await aWorld();
    const [t1] = world.tableIds as [string];
    const { input, orderId } = await givenSeated(world, [t1], 2, 'R-cv');
    const mark = world.mark();

    expectOk(await world.put(later(input, { covers: 5 })));

    expect((await order(world, orderId))?.covers).toBe(5);
    expect(world.eventsFrom(mark).map((e) => [e.type, e.data])).toEqual([
      [
        'table.spend_updated',
        {
          tableIds: [t1],
          orderId,
          reservationExternalId: 'R-cv',
          spendMinor: 0,
          currency: 'EUR',
          covers: 5,
          occurredAt: world.clock.now().toIso(),
          totals: {
            subtotalMinor: 0,
            discountMinor: 0,
            taxMinor: 0,
            tipMinor: 0,
            paidMinor: 0,
            balanceMinor: 0,
          },
        },
      ],
    ]);
  });

  it('When a seated write changes tables and covers, then the move events come first, then spend_updated with the new figures', async () => {
    const world = await aWorld();
    const [t1, t2] = world.tableIds as [string, string];
    const { input, orderId } = await givenSeated(world, [t1]);
    const mark = world.mark();

    expectOk(await world.put(later(input, { tableIds: [t2], covers: 4 })));

    expect(world.eventsFrom(mark).map((e) => e.type)).toEqual([
      'table.freed',
      'table.occupied',
      'table.spend_updated',
    ]);
    expect(await order(world, orderId)).toMatchObject({ tableIds: [t2], covers: 4 });
  });

  it.each<ReservationStatus>(['cancelled', 'finished', 'no_show', 'booked', 'confirmed', 'arrived'])(
    'When a %s write names other tables and covers, then the order is left as it is and the reservation changes only',
    async (status) => {
      const world = await aWorld();
      const [t1, t2] = world.tableIds as [string, string];
      const { input, orderId } = await givenSeated(world, [t1]);
      const before = await order(world, orderId);
      const mark = world.mark();

      const result = expectOk(await world.put(later(input, { status, tableIds: [t2], covers: 9 })));

      expect(result.reservation).toMatchObject({ status, tableIds: [t2], covers: 9, linkedOrderId: orderId });
      expect(await order(world, orderId)).toStrictEqual(before);
      expect(world.eventsFrom(mark)).toEqual([]);
      expect(world.store.holderOf(world.locationId, t1)).toBe(orderId);
    },
  );

  it.each<'closed' | 'voided'>(['closed', 'voided'])(
    'When the till has %s the order, then a seated write with new tables neither reopens nor moves it',
    async (how) => {
      const world = await aWorld();
      const [t1, t2] = world.tableIds as [string, string];
      const { input, orderId } = await givenSeated(world, [t1]);
      expectOk(await finishOrderAs(world.deps, { locationId: world.locationId, orderId, how }));
      const before = await order(world, orderId);
      const mark = world.mark();

      const result = expectOk(await world.put(later(input, { tableIds: [t2], covers: 7 })));

      expect(result.outcome).toBe('applied');
      expect(result.reservation).toMatchObject({ tableIds: [t2], linkedOrderId: orderId });
      expect(await order(world, orderId)).toStrictEqual(before);
      expect(world.store.orders(world.locationId)).toHaveLength(1);
      expect(world.eventsFrom(mark)).toEqual([]);
      expect([
        world.store.holderOf(world.locationId, t1),
        world.store.holderOf(world.locationId, t2),
      ]).toEqual([null, null]);
    },
  );

  it('When the till moved the order and a seated write changes neither tables nor covers, then the order stays where the till put it', async () => {
    const world = await aWorld();
    const [t1, t2] = world.tableIds as [string, string];
    const { input, orderId } = await givenSeated(world, [t1]);
    expectOk(await moveOrderToTables(world.deps, { locationId: world.locationId, orderId, tableIds: [t2] }));
    const mark = world.mark();

    expectOk(await world.put(later(input, { partyName: 'Renamed party' })));

    expect((await order(world, orderId))?.tableIds).toEqual([t2]);
    expect(world.eventsFrom(mark)).toEqual([]);
  });

  it('When a seated reservation is cancelled, then the order stays open on its tables', async () => {
    const world = await aWorld();
    const { input, orderId } = await givenSeated(world, [world.tableIds[0]!]);

    expectOk(await world.put(later(input, { status: 'cancelled' })));

    expect((await order(world, orderId))?.status).toBe('open');
    expect(world.store.holderOf(world.locationId, world.tableIds[0]!)).toBe(orderId);
  });

  it('When a seated write is retried, then it is stale and no second order opens', async () => {
    const world = await aWorld();
    const { input } = await givenSeated(world, [world.tableIds[0]!]);

    const retry = expectOk(await world.put(input));

    expect(retry.outcome).toBe('stale');
    expect(world.store.orders(world.locationId)).toHaveLength(1);
  });
});
