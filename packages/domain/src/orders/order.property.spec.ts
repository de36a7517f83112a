import fc from 'fast-check';
import { at } from '../../test/builders';
import type { DomainEvent } from '../events/domain-event';
import type { Outcome } from '../kernel/outcome';
import { addItem } from './till';
import {
  changeCovers,
  finishOrder,
  moveOrder,
  openOrder,
  otherHolder,
  type Order,
  type OrderChange,
  type TableHolder,
} from './order';

const TABLES = ['t-1', 't-2', 't-3', 't-4', 't-5'];
const NOW = at('2026-11-21T19:00:00Z');

const tablesArb = fc.shuffledSubarray(TABLES, { minLength: 1, maxLength: 3 });
const pick = fc.nat({ max: 50 });

const commandArb = fc.oneof(
  fc.record({
    kind: fc.constant('open' as const),
    tableIds: tablesArb,
    covers: fc.integer({ min: 1, max: 12 }),
  }),
  fc.record({ kind: fc.constant('move' as const), pick, tableIds: tablesArb }),
  fc.record({ kind: fc.constant('covers' as const), pick, covers: fc.integer({ min: 1, max: 12 }) }),
  fc.record({
    kind: fc.constant('item' as const),
    pick,
    amountMinor: fc.integer({ min: 0, max: 50_000_000 }),
    quantity: fc.integer({ min: 1, max: 1000 }),
  }),
  fc.record({
    kind: fc.constant('finish' as const),
    pick,
    how: fc.constantFrom('closed' as const, 'voided' as const),
  }),
);
type Command = typeof commandArb extends fc.Arbitrary<infer C> ? C : never;

/** Who stands on each table, from the orders themselves. */
function holdersOf(orders: Order[], tableIds: readonly string[]): TableHolder[] {
  return orders
    .filter((o) => o.status === 'open')
    .flatMap((o) =>
      o.tableIds
        .filter((t) => tableIds.includes(t))
        .map((tableId) => ({ tableId, orderId: o.id, reservationExternalId: o.reservationExternalId })),
    );
}

/** Runs one command the way the till use cases do: open and move only when otherHolder allows. */
function run(orders: Order[], cmd: Command, n: number): { orders: Order[]; events: DomainEvent[] } {
  if (cmd.kind === 'open') {
    if (otherHolder(holdersOf(orders, cmd.tableIds), null) !== null) return { orders, events: [] };
    const change = openOrder({
      id: `o-${n}`,
      locationId: 'loc-1',
      tableIds: cmd.tableIds,
      covers: cmd.covers,
      currency: 'EUR',
      reservationExternalId: n % 2 === 0 ? `r-${n}` : null,
      now: NOW,
    });
    return { orders: [...orders, change.order], events: change.events };
  }
  const order = orders[cmd.pick % Math.max(orders.length, 1)];
  if (order === undefined) return { orders, events: [] };
  let outcome: Outcome<OrderChange>;
  switch (cmd.kind) {
    case 'move':
      if (otherHolder(holdersOf(orders, cmd.tableIds), order.id) !== null) return { orders, events: [] };
      outcome = moveOrder(order, cmd.tableIds, NOW);
      break;
    case 'covers':
      outcome = changeCovers(order, cmd.covers, NOW);
      break;
    case 'item':
      outcome = addItem(
        order,
        {
          id: `i-${n}`,
          label: 'x',
          amountMinor: cmd.amountMinor,
          quantity: cmd.quantity,
          taxRateBps: 0,
          course: 'other',
        },
        NOW,
      );
      break;
    case 'finish':
      outcome = finishOrder(order, cmd.how, NOW);
      break;
  }
  if (!outcome.ok) return { orders, events: [] };
  const next = outcome.value.order;
  return { orders: orders.map((o) => (o.id === next.id ? next : o)), events: outcome.value.events };
}

describe('order operations (property)', () => {
  it('When any till commands run, each guarded by otherHolder, then no table ever carries two open orders', () => {
    fc.assert(
      fc.property(fc.array(commandArb, { maxLength: 60 }), (commands) => {
        let orders: Order[] = [];
        /** Occupancy as a webhook receiver would rebuild it from the events alone. */
        const fromEvents = new Map<string, string>();

        commands.forEach((cmd, n) => {
          const step = run(orders, cmd, n);
          orders = step.orders;
          for (const e of step.events) {
            if (e.type === 'table.occupied') {
              expect(fromEvents.has(e.data.tableId)).toBe(false);
              fromEvents.set(e.data.tableId, e.data.orderId);
            }
            if (e.type === 'table.freed') {
              expect(fromEvents.get(e.data.tableId)).toBe(e.data.orderId);
              fromEvents.delete(e.data.tableId);
            }
          }

          const open = orders.filter((o) => o.status === 'open');
          const standing = open.flatMap((o) => o.tableIds);
          expect(new Set(standing).size).toBe(standing.length);
          expect(new Map(open.flatMap((o) => o.tableIds.map((t) => [t, o.id] as const)))).toEqual(fromEvents);
          for (const o of orders) {
            expect(o.spendMinor).toBe(o.check.items.reduce((sum, i) => sum + i.amountMinor * i.quantity, 0));
            expect(o.spendMinor).toBe(o.check.totalMinor);
            expect(o.spendMinor).toBeLessThanOrEqual(2_147_483_647);
            expect(o.closedAt === null).toBe(o.status === 'open');
          }
        });
      }),
      { numRuns: 300 },
    );
  });
});
