import { at, openOrderOn } from '../../test/builders';
import type { DomainEvent } from '../events/domain-event';
import type { Outcome } from '../kernel/outcome';
import { EMPTY_LINES, makeCheck, MAX_INT32, type CheckItem } from './check';
import { addItem, type NewItem } from './till';
import {
  changeCovers,
  finishOrder,
  moveOrder,
  openOrder,
  otherHolder,
  reseatOrder,
  type Order,
  type OrderChange,
  type TableHolder,
  withLines,
} from './order';

const NOW = at('2026-11-21T19:30:00.123456Z');
const NOW_ISO = '2026-11-21T19:30:00.123Z';

/** An item already on the check, worth `amountMinor`. */
const earlier = (amountMinor: number): CheckItem => ({
  id: 'i-earlier',
  label: 'earlier',
  quantity: 1,
  amountMinor,
  taxRateBps: 0,
  course: 'other',
  voided: false,
});

function value(outcome: Outcome<OrderChange>): OrderChange {
  if (!outcome.ok) throw new Error(`expected success, got ${outcome.code}: ${outcome.message}`);
  return outcome.value;
}

const occupiedOf = (order: Order, tableId: string): DomainEvent => ({
  type: 'table.occupied',
  occurredAt: NOW,
  data: {
    tableId,
    orderId: order.id,
    reservationExternalId: order.reservationExternalId,
    covers: order.covers,
    occurredAt: NOW_ISO,
  },
});

const freedOf = (order: Order, tableId: string, reason: 'closed' | 'moved' | 'voided'): DomainEvent => ({
  type: 'table.freed',
  occurredAt: NOW,
  data: {
    tableId,
    orderId: order.id,
    reservationExternalId: order.reservationExternalId,
    reason,
    occurredAt: NOW_ISO,
  },
});

describe('openOrder', () => {
  it.each([
    ['a walk-in on one table', ['t-1'], null],
    ['a reservation on three tables', ['t-3', 't-1', 't-2'], 'r-1'],
  ])(
    'When %s opens, then the order is open and each table gets one table.occupied',
    (_c, tableIds, extId) => {
      const { order, events } = openOrder({
        id: 'o-9',
        locationId: 'loc-1',
        tableIds,
        covers: 5,
        currency: 'CHF',
        reservationExternalId: extId,
        now: NOW,
      });

      expect(order).toEqual({
        id: 'o-9',
        locationId: 'loc-1',
        tableIds,
        covers: 5,
        spendMinor: 0,
        currency: 'CHF',
        status: 'open',
        reservationExternalId: extId,
        check: makeCheck(EMPTY_LINES),
        serviceStatus: null,
        openedAt: NOW,
        closedAt: null,
      });
      expect(events).toEqual(tableIds.map((tableId) => occupiedOf(order, tableId)));
    },
  );

  it('When the command list of tables is changed afterwards, then the order keeps its own copy', () => {
    const tableIds = ['t-1'];
    const { order } = openOrder({
      id: 'o-1',
      locationId: 'loc-1',
      tableIds,
      covers: 2,
      currency: 'EUR',
      reservationExternalId: null,
      now: NOW,
    });

    tableIds.push('t-2');

    expect(order.tableIds).toEqual(['t-1']);
  });
});

describe('moveOrder', () => {
  it.each<[string, string[], string[], [string, 'freed' | 'occupied'][]]>([
    [
      'to a disjoint table',
      ['t-1'],
      ['t-2'],
      [
        ['t-1', 'freed'],
        ['t-2', 'occupied'],
      ],
    ],
    [
      'keeping one table of two',
      ['t-1', 't-2'],
      ['t-2', 't-3'],
      [
        ['t-1', 'freed'],
        ['t-3', 'occupied'],
      ],
    ],
    [
      'onto more tables',
      ['t-1'],
      ['t-1', 't-2', 't-3'],
      [
        ['t-2', 'occupied'],
        ['t-3', 'occupied'],
      ],
    ],
    [
      'onto fewer tables',
      ['t-1', 't-2', 't-3'],
      ['t-2'],
      [
        ['t-1', 'freed'],
        ['t-3', 'freed'],
      ],
    ],
    ['to the same tables', ['t-1', 't-2'], ['t-1', 't-2'], []],
    ['to the same tables listed in another order', ['t-1', 't-2'], ['t-2', 't-1'], []],
  ])(
    'When an order moves %s, then tables left are freed (moved), tables taken occupied, kept ones silent',
    (_c, from, to, expected) => {
      const order = openOrderOn(from, { reservationExternalId: 'r-1', covers: 3 });

      const { order: moved, events } = value(moveOrder(order, to, NOW));

      expect(moved).toEqual({ ...order, tableIds: to });
      expect(events).toEqual(
        expected.map(([tableId, kind]) =>
          kind === 'freed' ? freedOf(order, tableId, 'moved') : occupiedOf(moved, tableId),
        ),
      );
    },
  );
});

describe('changeCovers', () => {
  it('When the covers change, then table.spend_updated carries the new covers', () => {
    const order = withLines(openOrderOn(['t-2', 't-1'], { covers: 2, reservationExternalId: 'r-1' }), {
      ...EMPTY_LINES,
      items: [earlier(1200)],
    });

    const { order: changed, events } = value(changeCovers(order, 6, NOW));

    expect(changed).toEqual({ ...order, covers: 6 });
    expect(events).toEqual([
      {
        type: 'table.spend_updated',
        occurredAt: NOW,
        data: {
          tableIds: ['t-2', 't-1'],
          orderId: 'o-1',
          reservationExternalId: 'r-1',
          spendMinor: 1200,
          currency: 'EUR',
          covers: 6,
          occurredAt: NOW_ISO,
          totals: {
            subtotalMinor: 1200,
            discountMinor: 0,
            taxMinor: 0,
            tipMinor: 0,
            paidMinor: 0,
            balanceMinor: 1200,
          },
        },
      },
    ]);
  });

  it('When the covers are unchanged, then no event is emitted and the order stays as it is', () => {
    const order = openOrderOn(['t-1'], { covers: 4 });

    const { order: same, events } = value(changeCovers(order, 4, NOW));

    expect(same).toEqual(order);
    expect(events).toEqual([]);
  });
});

describe('reseatOrder', () => {
  it('When an order moves and changes covers at once, then table.occupied carries the new covers and spend_updated the new tables', () => {
    const order = openOrderOn(['t-1'], { covers: 2, reservationExternalId: 'r-1' });

    const { order: reseated, events } = value(reseatOrder(order, ['t-3'], 3, NOW));

    expect(reseated).toEqual({ ...order, tableIds: ['t-3'], covers: 3 });
    expect(events.map((e) => e.type)).toEqual(['table.freed', 'table.occupied', 'table.spend_updated']);
    expect(events[0]).toEqual(freedOf(order, 't-1', 'moved'));
    expect(events[1]).toEqual(occupiedOf(reseated, 't-3'));
    expect(events[1]!.data).toMatchObject({ covers: 3 });
    expect(events[2]!.data).toMatchObject({ tableIds: ['t-3'], covers: 3 });
  });
});

describe('addItem', () => {
  const wine = (amountMinor: number, quantity: number): NewItem => ({
    id: 'i-new',
    label: 'Wine',
    amountMinor,
    quantity,
    taxRateBps: 0,
    course: 'drink',
  });

  it.each([
    ['one item of quantity 1', 0, 450, 1, 450],
    ['three of an item', 1000, 250, 3, 1750],
    ['a free item', 1000, 0, 5, 1000],
    ['an item that reaches the maximum exactly', MAX_INT32 - 10, 5, 2, MAX_INT32],
  ])(
    'When %s is added, then the spend grows by amount times quantity',
    (_c, spend, amountMinor, quantity, total) => {
      const order = withLines(openOrderOn(['t-1']), { ...EMPTY_LINES, items: [earlier(spend)] });

      const { order: next, events } = value(addItem(order, wine(amountMinor, quantity), NOW));

      expect(next.spendMinor).toBe(total);
      expect(next.check.totalMinor).toBe(total);
      expect(next.check.items).toEqual([
        ...order.check.items,
        { ...wine(amountMinor, quantity), voided: false },
      ]);
      expect(events).toEqual([
        {
          type: 'table.spend_updated',
          occurredAt: NOW,
          data: {
            tableIds: ['t-1'],
            orderId: 'o-1',
            reservationExternalId: null,
            spendMinor: total,
            currency: 'EUR',
            covers: 2,
            occurredAt: NOW_ISO,
            totals: {
              subtotalMinor: total,
              discountMinor: 0,
              taxMinor: 0,
              tipMinor: 0,
              paidMinor: 0,
              balanceMinor: total,
            },
          },
        },
      ]);
    },
  );

  it.each([
    ['one minor unit over the maximum', MAX_INT32 - 10, 11, 1],
    ['a quantity that overflows', 0, MAX_INT32, 2],
    ['an amount far beyond safe integers', 0, Number.MAX_SAFE_INTEGER, 1000],
  ])(
    'When %s would be reached, then the item is refused and the order unchanged',
    (_c, spend, amountMinor, quantity) => {
      const order = withLines(openOrderOn(['t-1']), { ...EMPTY_LINES, items: [earlier(spend)] });
      const before = JSON.stringify(order);

      const outcome = addItem(order, { ...wine(amountMinor, quantity), label: 'Caviar' }, NOW);

      expect(outcome).toMatchObject({ ok: false, code: 'validation_failed', occupiedBy: null });
      expect(JSON.stringify(order)).toBe(before);
    },
  );
});

describe('finishOrder', () => {
  it.each(['closed', 'voided'] as const)(
    'When an order is %s, then it records closedAt and every table is freed with that reason',
    (how) => {
      const order = openOrderOn(['t-1', 't-2'], { reservationExternalId: 'r-1' });

      const { order: done, events } = value(finishOrder(order, how, NOW));

      expect(done).toEqual({ ...order, status: how, closedAt: NOW });
      expect(events.slice(0, 2)).toEqual([freedOf(order, 't-1', how), freedOf(order, 't-2', how)]);
      expect(events.slice(2).map((e) => e.type)).toEqual(how === 'closed' ? ['order.closed'] : []);
    },
  );
});

describe('operations on an order that is not open', () => {
  const operations: [string, (o: Order) => Outcome<OrderChange>][] = [
    ['move', (o) => moveOrder(o, ['t-9'], NOW)],
    ['changeCovers', (o) => changeCovers(o, 9, NOW)],
    ['changeCovers to the same covers', (o) => changeCovers(o, o.covers, NOW)],
    ['close', (o) => finishOrder(o, 'closed', NOW)],
    ['void', (o) => finishOrder(o, 'voided', NOW)],
  ];
  const rows = (['closed', 'voided'] as const).flatMap((status) =>
    operations.map(([name, op]) => [name, status, op] as const),
  );

  it.each(rows)('When %s is asked of a %s order, then it is refused', (_name, status, op) => {
    const order = openOrderOn(['t-1'], { status, closedAt: at('2026-11-21T20:00:00Z') });

    const outcome = op(order);

    expect(outcome.ok).toBe(false);
    expect(outcome).toMatchObject({ code: 'validation_failed', message: expect.stringContaining(status) });
  });
});

describe('otherHolder', () => {
  const h = (tableId: string, orderId: string, reservationExternalId: string | null = null): TableHolder => ({
    tableId,
    orderId,
    reservationExternalId,
  });

  it.each<[string, TableHolder[], string | null, TableHolder | null]>([
    ['no table is held', [], null, null],
    ['no table is held and an own order is given', [], 'o-1', null],
    ['every held table is the own order', [h('t-1', 'o-1'), h('t-2', 'o-1')], 'o-1', null],
    [
      'one other order holds a table',
      [h('t-1', 'o-1'), h('t-2', 'o-2', 'r-2')],
      'o-1',
      h('t-2', 'o-2', 'r-2'),
    ],
    [
      'two others hold tables, listed out of id order',
      [h('t-3', 'o-3'), h('t-2', 'o-2')],
      'o-1',
      h('t-2', 'o-2'),
    ],
    ['a new order (no own) meets holders', [h('t-b', 'o-b'), h('t-a', 'o-a')], null, h('t-a', 'o-a')],
    ['the own order sorts first', [h('t-2', 'o-2'), h('t-1', 'o-1')], 'o-1', h('t-2', 'o-2')],
  ])('When %s, then the holder named is as listed', (_c, holders, own, expected) => {
    const input = [...holders];

    expect(otherHolder(input, own)).toEqual(expected);
    expect(input).toEqual(holders);
  });
});
