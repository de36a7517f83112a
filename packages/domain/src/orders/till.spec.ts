import { at, openOrderOn } from '../../test/builders';
import type { Outcome } from '../kernel/outcome';
import { EMPTY_LINES, MAX_CHECK_LINES, MAX_INT32, type CheckItem } from './check';
import { depositOf, finishOrder, openOrder, withLines, type Order, type OrderChange } from './order';
import { addDiscount, addItem, addPayment, setServiceStatus, voidItem, type NewItem } from './till';

const NOW = at('2026-11-21T20:15:00.000250Z');

function value(outcome: Outcome<OrderChange>): OrderChange {
  if (!outcome.ok) throw new Error(`expected success, got ${outcome.code}: ${outcome.message}`);
  return outcome.value;
}

const soup: NewItem = {
  id: 'i-soup',
  label: 'Soup',
  amountMinor: 650,
  quantity: 2,
  taxRateBps: 1000,
  course: 'starter',
};
const steak: NewItem = {
  id: 'i-steak',
  label: 'Steak',
  amountMinor: 2400,
  quantity: 1,
  taxRateBps: 2000,
  course: 'main',
};

const withItems = (...items: NewItem[]): Order =>
  withLines(openOrderOn(['t-1', 't-2'], { reservationExternalId: 'r-7' }), {
    ...EMPTY_LINES,
    items: items.map((i): CheckItem => ({ ...i, voided: false })),
  });

describe('till writes on an open order', () => {
  it('When an item is added with a tax rate and a course, then it is on the check and the totals follow', () => {
    const { order, events } = value(addItem(withItems(soup), steak, NOW));

    expect(order.check.items.map((i) => [i.id, i.course, i.voided])).toEqual([
      ['i-soup', 'starter', false],
      ['i-steak', 'main', false],
    ]);
    // 1300 at 10 %: 118.18 -> 118; 2400 at 20 %: 400.
    expect(order.check).toMatchObject({
      subtotalMinor: 3700,
      taxMinor: 518,
      totalMinor: 3700,
      balanceMinor: 3700,
    });
    expect(order.spendMinor).toBe(3700);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      type: 'table.spend_updated',
      data: {
        tableIds: ['t-1', 't-2'],
        spendMinor: 3700,
        totals: {
          subtotalMinor: 3700,
          discountMinor: 0,
          taxMinor: 518,
          tipMinor: 0,
          paidMinor: 0,
          balanceMinor: 3700,
        },
      },
    });
  });

  it('When an item is voided, then it stays on the check, out of the totals, and a second void changes nothing', () => {
    const { order, events } = value(voidItem(withItems(soup, steak), 'i-soup', NOW));

    expect(order.check.items.find((i) => i.id === 'i-soup')!.voided).toBe(true);
    expect(order.check).toMatchObject({ subtotalMinor: 2400, taxMinor: 400, totalMinor: 2400 });
    expect(events.map((e) => e.type)).toEqual(['table.spend_updated']);

    const again = value(voidItem(order, 'i-soup', NOW));
    expect(again.order).toBe(order);
    expect(again.events).toEqual([]);
  });

  it('When an unknown item is voided, then not_found', () => {
    expect(voidItem(withItems(soup), 'i-nope', NOW)).toMatchObject({ ok: false, code: 'not_found' });
  });

  it('When a discount is added, then the total falls and the tax shrinks in proportion', () => {
    const { order, events } = value(
      addDiscount(withItems(steak), { id: 'd-1', label: 'Staff', amountMinor: 600 }, NOW),
    );

    // T = 400; 400 × 1800 / 2400 = 300.
    expect(order.check).toMatchObject({ discountMinor: 600, totalMinor: 1800, taxMinor: 300 });
    expect(order.check.discounts).toEqual([{ id: 'd-1', label: 'Staff', amountMinor: 600 }]);
    expect(events[0]).toMatchObject({ type: 'table.spend_updated', data: { spendMinor: 1800 } });
  });

  it('When a payment with a tip is added, then paid excludes the tip, the tip is summed apart and it is stamped now', () => {
    const { order } = value(
      addPayment(withItems(steak), { id: 'p-1', amountMinor: 2000, tipMinor: 300, tender: 'card' }, NOW),
    );

    expect(order.check.payments).toEqual([
      { id: 'p-1', amountMinor: 2000, tipMinor: 300, tender: 'card', paidAt: NOW },
    ]);
    expect(order.check).toMatchObject({ paidMinor: 2000, tipMinor: 300, balanceMinor: 400 });
  });

  it('When more is paid than the total, then the balance is negative: a refund is due', () => {
    const { order } = value(
      addPayment(withItems(steak), { id: 'p-1', amountMinor: 3000, tipMinor: 0, tender: 'cash' }, NOW),
    );

    expect(order.check.balanceMinor).toBe(-600);
  });

  it.each<[string, (o: Order) => Outcome<OrderChange>, string]>([
    [
      'payments past 2147483647',
      (o) => addPayment(o, { id: 'p', amountMinor: MAX_INT32, tipMinor: 0, tender: 'card' }, NOW),
      '/amountMinor',
    ],
    [
      'tips past 2147483647',
      (o) => addPayment(o, { id: 'p', amountMinor: 0, tipMinor: MAX_INT32, tender: 'card' }, NOW),
      '/tipMinor',
    ],
    [
      'discounts past 2147483647',
      (o) => addDiscount(o, { id: 'd', label: 'd', amountMinor: MAX_INT32 }, NOW),
      '/amountMinor',
    ],
  ])('When %s would be reached, then validation_failed points at the amount', (_c, write, path) => {
    const base = value(
      addPayment(withItems(steak), { id: 'p0', amountMinor: 1, tipMinor: 1, tender: 'card' }, NOW),
    ).order;
    const discounted = value(addDiscount(base, { id: 'd0', label: 'd', amountMinor: 1 }, NOW)).order;

    const outcome = write(discounted);

    expect(outcome).toMatchObject({ ok: false, code: 'validation_failed', details: [{ path }] });
  });

  it('When a check already holds the most items it may, then one more is refused', () => {
    const full = withLines(openOrderOn(['t-1']), {
      ...EMPTY_LINES,
      items: Array.from({ length: MAX_CHECK_LINES }, (_, n) => ({ ...soup, id: `i-${n}`, voided: false })),
    });

    expect(addItem(full, steak, NOW)).toMatchObject({ ok: false, code: 'validation_failed' });
  });

  it('When the service status changes, then table.status_changed names it; the same status again changes nothing', () => {
    const { order, events } = value(setServiceStatus(withItems(), 'mains', NOW));

    expect(order.serviceStatus).toBe('mains');
    expect(events).toEqual([
      {
        type: 'table.status_changed',
        occurredAt: NOW,
        data: {
          tableIds: ['t-1', 't-2'],
          orderId: 'o-1',
          reservationExternalId: 'r-7',
          serviceStatus: 'mains',
          occurredAt: NOW.toIso(),
        },
      },
    ]);
    expect(value(setServiceStatus(order, 'mains', NOW))).toEqual({ order, events: [] });
  });
});

describe('till writes on an order that is not open', () => {
  const writes: [string, (o: Order) => Outcome<OrderChange>][] = [
    ['an item', (o) => addItem(o, steak, NOW)],
    ['a void', (o) => voidItem(o, 'i-soup', NOW)],
    ['a discount', (o) => addDiscount(o, { id: 'd', label: 'd', amountMinor: 1 }, NOW)],
    ['a payment', (o) => addPayment(o, { id: 'p', amountMinor: 1, tipMinor: 0, tender: 'cash' }, NOW)],
    ['a service status', (o) => setServiceStatus(o, 'paid', NOW)],
  ];
  const rows = (['closed', 'voided'] as const).flatMap((status) =>
    writes.map(([name, w]) => [name, status, w] as const),
  );

  it.each(rows)(
    'When %s is written on a %s order, then order_closed and nothing changes',
    (_n, status, write) => {
      const order = { ...withItems(soup), status, closedAt: at('2026-11-21T21:00:00Z') };
      const before = JSON.stringify(order);

      expect(write(order)).toMatchObject({ ok: false, code: 'order_closed', occupiedBy: null });
      expect(JSON.stringify(order)).toBe(before);
    },
  );
});

describe('closing', () => {
  it('When an order closes, then order.closed follows the table.freed events and carries the final check', () => {
    const paid = value(
      addPayment(withItems(soup), { id: 'p-1', amountMinor: 1300, tipMinor: 100, tender: 'card' }, NOW),
    ).order;

    const { events } = value(finishOrder(paid, 'closed', NOW));

    expect(events.map((e) => e.type)).toEqual(['table.freed', 'table.freed', 'order.closed']);
    expect(events[2]).toEqual({
      type: 'order.closed',
      occurredAt: NOW,
      data: {
        orderId: 'o-1',
        reservationExternalId: 'r-7',
        tableIds: ['t-1', 't-2'],
        covers: 2,
        currency: 'EUR',
        openedAt: '2026-11-21T19:00:00.000Z',
        closedAt: NOW.toIso(),
        check: {
          items: [
            {
              id: 'i-soup',
              label: 'Soup',
              quantity: 2,
              amountMinor: 650,
              taxRateBps: 1000,
              course: 'starter',
              voided: false,
            },
          ],
          discounts: [],
          payments: [{ id: 'p-1', amountMinor: 1300, tipMinor: 100, tender: 'card', paidAt: NOW.toIso() }],
          subtotalMinor: 1300,
          discountMinor: 0,
          taxMinor: 118,
          totalMinor: 1300,
          tipMinor: 100,
          paidMinor: 1300,
          balanceMinor: 0,
        },
      },
    });
  });

  it('When an order is voided, then no order.closed is sent and the check is kept', () => {
    const { order, events } = value(finishOrder(withItems(soup), 'voided', NOW));

    expect(events.map((e) => e.type)).toEqual(['table.freed', 'table.freed']);
    expect(order.check.items).toHaveLength(1);
  });
});

describe('deposits', () => {
  it.each<[string, { prepaidMinor: number; currency: string } | null, number | null]>([
    ['no prepayment', null, null],
    ['a prepayment of 0', { prepaidMinor: 0, currency: 'EUR' }, null],
    ["a prepayment in the location's currency", { prepaidMinor: 2500, currency: 'EUR' }, 2500],
    ['a prepayment in another currency', { prepaidMinor: 2500, currency: 'GBP' }, null],
  ])('When a seating brings %s, then the deposit is %p', (_c, prepayment, deposit) => {
    expect(depositOf(prepayment, 'EUR')).toBe(deposit);
  });

  it('When an order opens with a deposit, then the check holds one deposit payment and table.spend_updated follows the occupancy', () => {
    const { order, events } = openOrder({
      id: 'o-2',
      locationId: 'loc-1',
      tableIds: ['t-1'],
      covers: 2,
      currency: 'EUR',
      reservationExternalId: 'r-2',
      now: NOW,
      deposit: { id: 'p-dep', amountMinor: 2500 },
    });

    expect(order.check.payments).toEqual([
      { id: 'p-dep', amountMinor: 2500, tipMinor: 0, tender: 'deposit', paidAt: NOW },
    ]);
    expect(order.check).toMatchObject({ totalMinor: 0, paidMinor: 2500, balanceMinor: -2500 });
    expect(events.map((e) => e.type)).toEqual(['table.occupied', 'table.spend_updated']);
    expect(events[1]!.data).toMatchObject({ totals: { paidMinor: 2500, balanceMinor: -2500 } });
  });
});
