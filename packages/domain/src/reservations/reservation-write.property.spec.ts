import fc from 'fast-check';
import { at } from '../../test/builders';
import { MAX_INT32 } from '../orders/check';
import { Instant } from '../kernel/instant';
import { RESERVATION_STATUSES, type Reservation, type ReservationInput } from './reservation';
import { decideReservationWrite } from './reservation-write';

const BASE = at('2026-11-20T10:00:00Z');
const instantNear = (max: number) => fc.integer({ min: 0, max }).map((n) => BASE.plusMicros(BigInt(n)));
const text = fc.string({ minLength: 1, maxLength: 12 });

/** A write without its updatedAt: every request field varies. */
const bodyArb = fc.record({
  status: fc.constantFrom(...RESERVATION_STATUSES),
  partyName: fc.option(text, { nil: null }),
  covers: fc.integer({ min: 1, max: MAX_INT32 }),
  startsAt: instantNear(10_000_000_000),
  endsAt: fc.option(instantNear(10_000_000_000), { nil: null }),
  tableIds: fc.uniqueArray(fc.constantFrom('t-1', 't-2', 't-3', 't-4', 't-5'), {
    minLength: 1,
    maxLength: 4,
  }),
  guest: fc.option(
    fc.record({
      name: fc.option(text, { nil: null }),
      phone: fc.constant(null),
      email: fc.constant(null),
      vip: fc.boolean(),
      firstVisit: fc.boolean(),
      visitCount: fc.option(fc.nat(), { nil: null }),
      occasion: fc.constant(null),
      allergies: fc.option(text, { nil: null }),
      tags: fc.array(text, { maxLength: 3 }),
      memberSince: fc.constant(null),
      averageSpendMinor: fc.constant(null),
      noShowCount: fc.constant(null),
      recentVisits: fc.array(
        fc.record({
          occurredAt: instantNear(1_000_000),
          tableLabel: fc.option(text, { nil: null }),
          covers: fc.option(fc.integer({ min: 1, max: 20 }), { nil: null }),
          spendMinor: fc.option(fc.nat(), { nil: null }),
          outcome: fc.constantFrom('completed' as const, 'in_progress' as const, 'no_show' as const),
        }),
        { maxLength: 2 },
      ),
    }),
    { nil: null },
  ),
  internalNote: fc.option(text, { nil: null }),
  prepayment: fc.option(
    fc.record({
      prepaidMinor: fc.nat(),
      currency: fc.constantFrom('EUR', 'GBP'),
      items: fc.array(fc.record({ label: text, amountMinor: fc.nat() }), { maxLength: 2 }),
      imprint: fc.option(
        fc.record({
          amountMinor: fc.integer({ min: 1, max: MAX_INT32 }),
          status: fc.constantFrom('active' as const, 'released' as const, 'charged' as const),
        }),
        { nil: null },
      ),
    }),
    { nil: null },
  ),
  posOrderId: fc.option(text, { nil: null }),
});

type Write = ReservationInput;

/** Writes to one reservation, then a delivery order: every write at least once, any of them repeated, shuffled. */
function deliveriesOf(updatedAts: fc.Arbitrary<Instant[]>) {
  return updatedAts
    .chain((stamps) =>
      fc.tuple(
        fc.array(bodyArb, { minLength: stamps.length, maxLength: stamps.length }),
        fc.constant(stamps),
        fc.array(fc.nat({ max: stamps.length - 1 }), { maxLength: 12 }),
      ),
    )
    .chain(([bodies, stamps, repeats]) => {
      const writes: Write[] = bodies.map((b, i) => ({ ...b, externalId: 'r-1', updatedAt: stamps[i]! }));
      const order = [...writes.map((_, i) => i), ...repeats];
      return fc
        .shuffledSubarray(order, { minLength: order.length, maxLength: order.length })
        .map((delivered) => ({ writes, delivered: delivered.map((i) => writes[i]!) }));
    });
}

/** Folds deliveries as the use cases do: the first creates, a seating sets linkedOrderId. */
function fold(delivered: Write[]) {
  let stored: Reservation | null = null;
  const applied: { write: Write; now: Instant }[] = [];
  delivered.forEach((write, i) => {
    const now = at('2026-11-21T00:00:00Z').plusMicros(BigInt(i));
    const decision = decideReservationWrite(stored, write, { now, newId: `res-${i}`, locationId: 'loc-1' });
    if (decision.kind === 'stale') {
      expect(decision.stored).toBe(stored);
      return;
    }
    applied.push({ write, now });
    const { next } = decision;
    expect(next.receivedAt).toBe(now);
    if (stored !== null) {
      expect(next.id).toBe(stored.id);
      if (stored.arrivedAt !== null) expect(next.arrivedAt).toBe(stored.arrivedAt);
      expect(next.updatedAt.isAfter(stored.updatedAt)).toBe(true);
    }
    stored = decision.orderIntent.kind === 'open' ? { ...next, linkedOrderId: `o-${i}` } : next;
  });
  return { stored: stored as Reservation | null, applies: applied.length, applied };
}

function requestFields(r: Reservation): Write {
  const { id, locationId, linkedOrderId, arrivedAt, receivedAt, ...fields } = r;
  return fields;
}

const distinct = (stamps: Instant[]) => new Set(stamps.map((s) => s.epochMicros)).size;

describe('decideReservationWrite folded over deliveries (property)', () => {
  it('When distinct writes arrive in any order with any duplicates, then the newest updatedAt ends up stored', () => {
    const stamps = fc
      .uniqueArray(fc.integer({ min: 0, max: 40 }), { minLength: 1, maxLength: 8 })
      .map((ns) => ns.map((n) => BASE.plusMicros(BigInt(n))));

    fc.assert(
      fc.property(deliveriesOf(stamps), ({ writes, delivered }) => {
        const newest = writes.reduce((a, b) => (b.updatedAt.isAfter(a.updatedAt) ? b : a));

        const { stored, applies } = fold(delivered);

        expect(requestFields(stored!)).toEqual(newest);
        expect(applies).toBeLessThanOrEqual(distinct(writes.map((w) => w.updatedAt)));
      }),
      { numRuns: 300 },
    );
  });

  it('When different writes share an updatedAt, then the first delivered of the newest wins and applies stay bounded', () => {
    const stamps = fc
      .array(fc.integer({ min: 0, max: 4 }), { minLength: 1, maxLength: 8 })
      .map((ns) => ns.map((n) => BASE.plusMicros(BigInt(n))));

    fc.assert(
      fc.property(deliveriesOf(stamps), ({ writes, delivered }) => {
        const newestStamp = writes.reduce((a, b) => (b.updatedAt.isAfter(a.updatedAt) ? b : a)).updatedAt;
        const winner = delivered.find((w) => w.updatedAt.equals(newestStamp))!;

        const { stored, applies } = fold(delivered);

        expect(requestFields(stored!)).toEqual(winner);
        expect(applies).toBeLessThanOrEqual(distinct(writes.map((w) => w.updatedAt)));
      }),
      { numRuns: 300 },
    );
  });

  it('When writes are folded, then arrivedAt is the receipt time of the first applied arrived or seated write', () => {
    const stamps = fc
      .uniqueArray(fc.integer({ min: 0, max: 40 }), { minLength: 1, maxLength: 8 })
      .map((ns) => ns.map((n) => BASE.plusMicros(BigInt(n))));

    fc.assert(
      fc.property(deliveriesOf(stamps), ({ delivered }) => {
        const { stored, applied } = fold(delivered);

        const firstArrival = applied.find(({ write }) => ['arrived', 'seated'].includes(write.status));
        expect(stored!.arrivedAt).toBe(firstArrival?.now ?? null);
      }),
      { numRuns: 200 },
    );
  });
});
