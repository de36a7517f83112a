import fc from 'fast-check';
import {
  finishOrderAs,
  moveOrderToTables,
  openWalkInOrder,
  type Prepayment,
  type ReservationInput,
} from '../../src';
import { plusMillis } from '../builders';
import { aPrepayment } from '../builders';
import { aWorld, type World } from './use-case-world';

const TABLES = 4;
/** Each reservation keeps its prepayment through every write; only the first qualifies for a deposit. */
const PREPAYMENTS: (Prepayment | null)[] = [
  aPrepayment({ prepaidMinor: 3000, currency: 'EUR' }),
  aPrepayment({ prepaidMinor: 2000, currency: 'GBP' }),
  aPrepayment({ prepaidMinor: 0, currency: 'EUR' }),
  null,
];
const QUALIFYING = [3000, null, null, null];

const res = fc.nat({ max: PREPAYMENTS.length - 1 });
const tablesArb = fc.subarray([0, 1, 2, 3], { minLength: 1, maxLength: 2 });
const opArb = fc.oneof(
  fc.record({
    kind: fc.constant('seat' as const),
    res,
    tables: tablesArb,
    covers: fc.integer({ min: 1, max: 6 }),
  }),
  fc.record({ kind: fc.constant('retry' as const), res }),
  fc.record({ kind: fc.constant('stale' as const), res, tables: tablesArb }),
  fc.record({
    kind: fc.constant('leave' as const),
    res,
    status: fc.constantFrom(
      'cancelled' as const,
      'finished' as const,
      'no_show' as const,
      'confirmed' as const,
    ),
  }),
  fc.record({ kind: fc.constant('move' as const), res, tables: tablesArb }),
  fc.record({
    kind: fc.constant('finish' as const),
    res,
    how: fc.constantFrom('closed' as const, 'voided' as const),
  }),
  fc.record({ kind: fc.constant('walkIn' as const), tables: tablesArb }),
);
type Op = typeof opArb extends fc.Arbitrary<infer T> ? T : never;

async function run(world: World, op: Op, index: number, last: ReservationInput[]): Promise<unknown> {
  const { deps, locationId } = world;
  const tableIds = (ts: number[]) => ts.map((t) => world.tableIds[t]!);
  const linked = async (r: number) =>
    (await deps.queries.reservations.findByExternalId(locationId, `R-${r}`))?.linkedOrderId ?? null;
  const newer = (r: number, changes: Partial<ReservationInput>) => {
    last[r] = { ...last[r]!, ...changes, updatedAt: plusMillis(last[r]!.updatedAt, 1000 * (index + 1)) };
    return world.put(last[r]!);
  };
  switch (op.kind) {
    case 'seat':
      return newer(op.res, { status: 'seated', tableIds: tableIds(op.tables), covers: op.covers });
    case 'leave':
      return newer(op.res, { status: op.status });
    case 'retry':
      return world.put(last[op.res]!);
    case 'stale':
      return world.put({
        ...last[op.res]!,
        status: 'seated',
        tableIds: tableIds(op.tables),
        updatedAt: plusMillis(last[op.res]!.updatedAt, -1),
      });
    case 'move': {
      const orderId = await linked(op.res);
      return orderId && moveOrderToTables(deps, { locationId, orderId, tableIds: tableIds(op.tables) });
    }
    case 'finish': {
      const orderId = await linked(op.res);
      return orderId && finishOrderAs(deps, { locationId, orderId, how: op.how });
    }
    case 'walkIn':
      return openWalkInOrder(deps, { locationId, tableIds: tableIds(op.tables), covers: 2 });
  }
}

describe('deposits (property)', () => {
  it('When seats, moves, retries, stale writes, cancels and closes interleave in any order, then a qualifying reservation has exactly one deposit and nothing else has any', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { minLength: 1, maxLength: 14 }), fc.scheduler(), async (ops, s) => {
        const world = await aWorld(TABLES);
        const last: ReservationInput[] = [];
        for (const [r, prepayment] of PREPAYMENTS.entries()) {
          last.push(await world.given({ externalId: `R-${r}`, status: 'confirmed', prepayment }));
        }

        const running = ops.map((op, i) =>
          s.schedule(Promise.resolve(`${op.kind}#${i}`)).then(() => run(world, op, i, last)),
        );
        await s.waitFor(Promise.all(running));

        const orders = await world.deps.queries.orders.list(world.locationId, null);
        for (const order of orders) {
          const deposits = order.check.payments
            .filter((p) => p.tender === 'deposit')
            .map((p) => p.amountMinor);
          const r = order.reservationExternalId === null ? -1 : Number(order.reservationExternalId.slice(2));
          const expected = QUALIFYING[r] ?? null;
          expect(deposits).toEqual(expected === null ? [] : [expected]);
          expect(order.check.paidMinor).toBe(expected ?? 0);
        }
        for (const r of PREPAYMENTS.keys()) {
          expect(orders.filter((o) => o.reservationExternalId === `R-${r}`).length).toBeLessThanOrEqual(1);
        }
      }),
      { numRuns: 150 },
    );
  });
});
