import {
  addOrderDiscount,
  addOrderItem,
  addOrderPayment,
  finishOrderAs,
  moveOrderToTables,
  openWalkInOrder,
  setOrderServiceStatus,
  voidOrderItem,
  type Order,
  type Outcome,
} from '../../src';
import { aPrepayment, aReservationInput } from '../builders';
import { aWorld, expectOk, later, type World } from './use-case-world';

const till = (world: World, orderId: string) => ({ locationId: world.locationId, orderId });
const item = (
  world: World,
  orderId: string,
  amountMinor: number,
  extra: { taxRateBps?: number; quantity?: number } = {},
) =>
  addOrderItem(world.deps, {
    ...till(world, orderId),
    label: 'Dish',
    amountMinor,
    quantity: extra.quantity ?? 1,
    taxRateBps: extra.taxRateBps,
  });
const stored = (world: World, orderId: string) =>
  world.deps.queries.orders.findById(world.locationId, orderId);

async function openOrder(world: World): Promise<Order> {
  return expectOk(
    await openWalkInOrder(world.deps, {
      locationId: world.locationId,
      tableIds: [world.tableIds[0]!],
      covers: 2,
    }),
  );
}

describe('the till check (docs/reference/backoffice-api.md#the-check)', () => {
  it('When items, a void, a discount and payments are written, then the stored check and every spend_updated carry the same totals', async () => {
    const world = await aWorld();
    const order = await openOrder(world);
    const mark = world.mark();

    const soup = expectOk(await item(world, order.id, 650, { quantity: 2, taxRateBps: 1000 }));
    expectOk(await item(world, order.id, 2400, { taxRateBps: 2000 }));
    expectOk(await voidOrderItem(world.deps, { ...till(world, order.id), itemId: soup.check.items[0]!.id }));
    expectOk(await item(world, order.id, 1100, { taxRateBps: 1000 }));
    expectOk(
      await addOrderDiscount(world.deps, { ...till(world, order.id), label: 'Staff', amountMinor: 700 }),
    );
    const last = expectOk(
      await addOrderPayment(world.deps, {
        ...till(world, order.id),
        amountMinor: 2000,
        tipMinor: 250,
        tender: 'card',
      }),
    );

    // Live: 2400 at 20 % (T 400) and 1100 at 10 % (T 100); 700 off: 500 × 2800 / 3500 = 400.
    expect(last.check).toMatchObject({
      subtotalMinor: 3500,
      discountMinor: 700,
      taxMinor: 400,
      totalMinor: 2800,
      tipMinor: 250,
      paidMinor: 2000,
      balanceMinor: 800,
    });
    expect(last.check.items.map((i) => i.voided)).toEqual([true, false, false]);
    expect(await stored(world, order.id)).toStrictEqual(last);
    const events = world.eventsFrom(mark);
    expect(events.map((e) => e.type)).toEqual(Array(6).fill('table.spend_updated'));
    const { subtotalMinor, discountMinor, taxMinor, tipMinor, paidMinor, balanceMinor, totalMinor } =
      last.check;
    expect(events.at(-1)!.data).toMatchObject({
      spendMinor: totalMinor,
      totals: { subtotalMinor, discountMinor, taxMinor, tipMinor, paidMinor, balanceMinor },
    });
  });

  it('When an item is voided twice or the service status is set twice, then the second write sends nothing', async () => {
    const world = await aWorld();
    const order = await openOrder(world);
    const withItem = expectOk(await item(world, order.id, 500));
    const itemId = withItem.check.items[0]!.id;
    expectOk(await voidOrderItem(world.deps, { ...till(world, order.id), itemId }));
    expectOk(await setOrderServiceStatus(world.deps, { ...till(world, order.id), status: 'starters' }));
    const mark = world.mark();

    const again = expectOk(await voidOrderItem(world.deps, { ...till(world, order.id), itemId }));
    const same = expectOk(
      await setOrderServiceStatus(world.deps, { ...till(world, order.id), status: 'starters' }),
    );

    expect(again.check.items[0]!.voided).toBe(true);
    expect(same.serviceStatus).toBe('starters');
    expect(world.eventsFrom(mark)).toEqual([]);
  });

  it('When the service status changes, then table.status_changed names the order, its tables and the status', async () => {
    const world = await aWorld();
    const order = await openOrder(world);
    const mark = world.mark();

    const changed = expectOk(
      await setOrderServiceStatus(world.deps, { ...till(world, order.id), status: 'bill_requested' }),
    );

    expect(changed.serviceStatus).toBe('bill_requested');
    expect(world.eventsFrom(mark).map((e) => [e.type, e.data])).toEqual([
      [
        'table.status_changed',
        {
          tableIds: [world.tableIds[0]],
          orderId: order.id,
          reservationExternalId: null,
          serviceStatus: 'bill_requested',
          occurredAt: world.clock.now().toIso(),
        },
      ],
    ]);
  });

  it('When an order closes, then order.closed follows table.freed with the final check', async () => {
    const world = await aWorld();
    const order = await openOrder(world);
    expectOk(await item(world, order.id, 1800));
    expectOk(
      await addOrderPayment(world.deps, {
        ...till(world, order.id),
        amountMinor: 1800,
        tipMinor: 200,
        tender: 'cash',
      }),
    );
    world.clock.advance(60_000);
    const mark = world.mark();

    const closed = expectOk(await finishOrderAs(world.deps, { ...till(world, order.id), how: 'closed' }));

    const events = world.eventsFrom(mark);
    expect(events.map((e) => e.type)).toEqual(['table.freed', 'order.closed']);
    expect(events[1]!.data).toMatchObject({
      orderId: order.id,
      reservationExternalId: null,
      tableIds: order.tableIds,
      covers: 2,
      currency: 'EUR',
      openedAt: order.openedAt.toIso(),
      closedAt: closed.closedAt!.toIso(),
      check: { totalMinor: 1800, paidMinor: 1800, tipMinor: 200, balanceMinor: 0 },
    });
  });

  it.each<[string, (w: World, o: Order) => Promise<Outcome<Order>>]>([
    ['an item', (w, o) => item(w, o.id, 100)],
    ['a void', (w, o) => voidOrderItem(w.deps, { ...till(w, o.id), itemId: o.check.items[0]!.id })],
    ['a discount', (w, o) => addOrderDiscount(w.deps, { ...till(w, o.id), label: 'x', amountMinor: 1 })],
    [
      'a payment',
      (w, o) => addOrderPayment(w.deps, { ...till(w, o.id), amountMinor: 1, tipMinor: 0, tender: 'cash' }),
    ],
    ['a service status', (w, o) => setOrderServiceStatus(w.deps, { ...till(w, o.id), status: 'paid' })],
  ])(
    'When %s is written on a closed or voided order, then order_closed and nothing changes',
    async (_c, write) => {
      for (const how of ['closed', 'voided'] as const) {
        const world = await aWorld();
        const order = await openOrder(world);
        expectOk(await item(world, order.id, 900));
        const done = expectOk(await finishOrderAs(world.deps, { ...till(world, order.id), how }));
        const mark = world.mark();

        expect(await write(world, done)).toMatchObject({ ok: false, code: 'order_closed' });
        expect(await stored(world, order.id)).toStrictEqual(done);
        expect(world.eventsFrom(mark)).toEqual([]);
      }
    },
  );

  it('When an unknown item or order is named, then not_found', async () => {
    const world = await aWorld();
    const order = await openOrder(world);

    expect(
      await voidOrderItem(world.deps, {
        ...till(world, order.id),
        itemId: '00000000-0000-4000-8000-00000000beef',
      }),
    ).toMatchObject({ ok: false, code: 'not_found' });
    expect(
      await addOrderPayment(world.deps, {
        ...till(world, '00000000-0000-4000-8000-00000000beef'),
        amountMinor: 1,
        tipMinor: 0,
        tender: 'card',
      }),
    ).toMatchObject({ ok: false, code: 'not_found' });
  });
});

describe('deposits on seating (docs/reference/backoffice-api.md#deposits)', () => {
  const deposits = (order: Order | null) => order?.check.payments.filter((p) => p.tender === 'deposit') ?? [];

  it("When a reservation prepaid in the location's currency is seated, then its order opens with one deposit payment and spend_updated says so", async () => {
    const world = await aWorld();
    const input = await world.given({
      externalId: 'R-dep',
      prepayment: aPrepayment({ prepaidMinor: 2500, currency: 'EUR' }),
    });
    const mark = world.mark();

    const seated = expectOk(
      await world.put(later(input, { status: 'seated', tableIds: [world.tableIds[0]!] })),
    );

    const order = await stored(world, seated.reservation.linkedOrderId!);
    expect(deposits(order)).toEqual([
      {
        id: expect.any(String),
        amountMinor: 2500,
        tipMinor: 0,
        tender: 'deposit',
        paidAt: world.clock.now(),
      },
    ]);
    expect(order!.check).toMatchObject({ totalMinor: 0, paidMinor: 2500, balanceMinor: -2500 });
    expect(world.eventsFrom(mark).map((e) => e.type)).toEqual(['table.occupied', 'table.spend_updated']);
  });

  it('When the seated reservation is moved, re-seated with new covers, retried, cancelled and seated again, then the deposit stays one', async () => {
    const world = await aWorld();
    const [t1, t2] = world.tableIds as [string, string];
    const input = await world.given({
      externalId: 'R-once',
      prepayment: aPrepayment({ prepaidMinor: 4000 }),
    });
    const seat = later(input, { status: 'seated', tableIds: [t1] });
    const orderId = expectOk(await world.put(seat)).reservation.linkedOrderId!;

    expectOk(await world.put(seat));
    const moved = later(seat, { tableIds: [t2] });
    expectOk(await world.put(moved));
    const more = later(moved, { covers: 5 });
    expectOk(await world.put(more));
    const cancelled = later(more, { status: 'cancelled' });
    expectOk(await world.put(cancelled));
    expectOk(await world.put(later(cancelled, { status: 'seated', tableIds: [t1] })));
    expectOk(await moveOrderToTables(world.deps, { ...till(world, orderId), tableIds: [t2] }));

    expect(deposits(await stored(world, orderId)).map((p) => p.amountMinor)).toEqual([4000]);
  });

  it.each([
    ['in another currency', aPrepayment({ prepaidMinor: 2500, currency: 'GBP' })],
    ['of zero', aPrepayment({ prepaidMinor: 0 })],
    ['absent', null],
  ])('When the prepayment is %s, then seating records no deposit', async (_c, prepayment) => {
    const world = await aWorld();
    const input = await world.given({ prepayment });

    const seated = expectOk(
      await world.put(later(input, { status: 'seated', tableIds: [world.tableIds[0]!] })),
    );

    expect((await stored(world, seated.reservation.linkedOrderId!))!.check.payments).toEqual([]);
  });

  it('When a reservation is created already seated with a prepayment, then the deposit is recorded; a duplicate POST adds none', async () => {
    const world = await aWorld();
    const input = aReservationInput({
      externalId: 'R-walk',
      status: 'seated',
      tableIds: [world.tableIds[0]!],
      prepayment: aPrepayment({ prepaidMinor: 1500 }),
    });

    const created = expectOk(await world.create(input));
    expect(await world.create(input)).toMatchObject({ ok: false, code: 'duplicate_reservation' });

    expect(
      deposits(await stored(world, created.reservation.linkedOrderId!)).map((p) => p.amountMinor),
    ).toEqual([1500]);
  });
});
