import fc from 'fast-check';
import {
  finishOrderAs,
  moveOrderToTables,
  openWalkInOrder,
  type Order,
  type ReservationInput,
  type StoredEvent,
} from '../../src';
import { plusMillis } from '../builders';
import { aWorld, type World } from './use-case-world';

const TABLES = 4;
const RESERVATIONS = 3;

const tablesArb = fc.subarray([0, 1, 2, 3], { minLength: 1, maxLength: 2 });
const opArb = fc.oneof(
  fc.record({
    kind: fc.constant('walkIn' as const),
    tables: tablesArb,
    covers: fc.integer({ min: 1, max: 6 }),
  }),
  fc.record({
    kind: fc.constant('seat' as const),
    res: fc.nat({ max: RESERVATIONS - 1 }),
    tables: tablesArb,
    covers: fc.integer({ min: 1, max: 6 }),
  }),
  fc.record({
    kind: fc.constant('leave' as const),
    res: fc.nat({ max: RESERVATIONS - 1 }),
    status: fc.constantFrom('cancelled' as const, 'finished' as const, 'no_show' as const),
  }),
  fc.record({ kind: fc.constant('move' as const), on: fc.nat({ max: TABLES - 1 }), tables: tablesArb }),
  fc.record({
    kind: fc.constant('finish' as const),
    on: fc.nat({ max: TABLES - 1 }),
    how: fc.constantFrom('closed' as const, 'voided' as const),
  }),
);
type Op = typeof opArb extends fc.Arbitrary<infer T> ? T : never;

/** Runs one operation the way a till or a provider would, looking its order up first when it needs one. */
async function run(world: World, op: Op, index: number, bookings: ReservationInput[]): Promise<unknown> {
  const { deps, locationId } = world;
  const tableIds = (ts: number[]) => ts.map((t) => world.tableIds[t]!);
  const orderOn = async (t: number) =>
    (await deps.queries.orders.list(locationId, 'open')).find((o) => o.tableIds.includes(world.tableIds[t]!));
  switch (op.kind) {
    case 'walkIn':
      return openWalkInOrder(deps, { locationId, tableIds: tableIds(op.tables), covers: op.covers });
    case 'seat':
    case 'leave': {
      const booking = bookings[op.res]!;
      const write: ReservationInput = {
        ...booking,
        status: op.kind === 'seat' ? 'seated' : op.status,
        tableIds: op.kind === 'seat' ? tableIds(op.tables) : booking.tableIds,
        covers: op.kind === 'seat' ? op.covers : booking.covers,
        updatedAt: plusMillis(booking.updatedAt, 1000 * (index + 1)),
      };
      return world.put(write);
    }
    case 'move': {
      const order = await orderOn(op.on);
      return (
        order && moveOrderToTables(deps, { locationId, orderId: order.id, tableIds: tableIds(op.tables) })
      );
    }
    case 'finish': {
      const order = await orderOn(op.on);
      return order && finishOrderAs(deps, { locationId, orderId: order.id, how: op.how });
    }
  }
}

/** Replays the table events in sequence order; every step must agree with occupancy so far. */
function replay(events: StoredEvent[]): Map<string, string> {
  const holders = new Map<string, string>();
  for (const event of events) {
    if (event.type === 'table.occupied') {
      expect(holders.get(event.data.tableId)).toBeUndefined();
      holders.set(event.data.tableId, event.data.orderId);
    } else if (event.type === 'table.freed') {
      expect(holders.get(event.data.tableId)).toBe(event.data.orderId);
      holders.delete(event.data.tableId);
    } else if (event.type === 'table.spend_updated') {
      event.data.tableIds.forEach((t) => expect(holders.get(t)).toBe(event.data.orderId));
    }
  }
  return holders;
}

const standing = (orders: Order[]) =>
  new Map(orders.flatMap((o) => o.tableIds.map((t): [string, string] => [t, o.id])));

describe('occupancy property (docs/reference/provider-api.md#occupancy)', () => {
  it('When seats, moves, closes and walk-ins interleave in any order, then no table ever has two open orders and the events match the orders', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { minLength: 1, maxLength: 12 }), fc.scheduler(), async (ops, s) => {
        const world = await aWorld(TABLES);
        const bookings: ReservationInput[] = [];
        for (let r = 0; r < RESERVATIONS; r += 1) bookings.push(await world.given({ externalId: `R-${r}` }));

        const running = ops.map((op, i) =>
          s.schedule(Promise.resolve(`${op.kind}#${i}`)).then(() => run(world, op, i, bookings)),
        );
        await s.waitFor(Promise.all(running));

        const open = await world.deps.queries.orders.list(world.locationId, 'open');
        const tables = open.flatMap((o) => o.tableIds);
        expect(new Set(tables).size).toBe(tables.length);
        const fromEvents = replay(world.store.events(world.locationId));
        expect(fromEvents).toEqual(standing(open));
        world.tableIds.forEach((t) =>
          expect(world.store.holderOf(world.locationId, t)).toBe(standing(open).get(t) ?? null),
        );
        for (const reservation of world.store.reservations(world.locationId)) {
          if (reservation.linkedOrderId === null) continue;
          const order = await world.deps.queries.orders.findById(world.locationId, reservation.linkedOrderId);
          expect(order?.reservationExternalId).toBe(reservation.externalId);
        }
      }),
      { numRuns: 150 },
    );
  });
});
