import fc from 'fast-check';
import { at } from '../../test/builders';
import {
  COURSES,
  MAX_INT32,
  overflowingSum,
  roundHalfEven,
  TENDERS,
  totalsOf,
  type CheckLines,
} from './check';

const PAID_AT = at('2026-11-21T20:00:00Z');

/** Mostly the everyday values, now and then one anywhere up to the bound. */
const weighted = (usual: fc.Arbitrary<number>, any: fc.Arbitrary<number>) =>
  fc.oneof({ arbitrary: usual, weight: 12 }, { arbitrary: any, weight: 1 });

/** Any lines a till could write, some of them beyond what the limits accept. */
const linesArb: fc.Arbitrary<CheckLines> = fc.record({
  items: fc.array(
    fc.record({
      id: fc.uuid(),
      label: fc.constant('x'),
      quantity: weighted(fc.integer({ min: 1, max: 5 }), fc.integer({ min: 1, max: 1000 })),
      amountMinor: weighted(fc.integer({ min: 0, max: 5_000 }), fc.integer({ min: 0, max: MAX_INT32 })),
      taxRateBps: fc.oneof(
        fc.constantFrom(0, 550, 700, 1000, 2000, 10000),
        fc.integer({ min: 0, max: 10000 }),
      ),
      course: fc.constantFrom(...COURSES),
      voided: fc.boolean(),
    }),
    { maxLength: 12 },
  ),
  discounts: fc.array(
    fc.record({
      id: fc.uuid(),
      label: fc.constant('d'),
      amountMinor: weighted(fc.integer({ min: 0, max: 10_000 }), fc.integer({ min: 0, max: MAX_INT32 })),
    }),
    { maxLength: 4 },
  ),
  payments: fc.array(
    fc.record({
      id: fc.uuid(),
      amountMinor: weighted(fc.integer({ min: 0, max: 50_000 }), fc.integer({ min: 0, max: MAX_INT32 })),
      tipMinor: fc.integer({ min: 0, max: 100_000 }),
      tender: fc.constantFrom(...TENDERS),
      paidAt: fc.constant(PAID_AT),
    }),
    { maxLength: 4 },
  ),
});

/** Lines the limits accept: every sum within int32 (the only checks a till write can reach). */
const acceptedLinesArb = linesArb.filter((l) => overflowingSum(l) === null);

describe('check totals (property)', () => {
  it('When the lines are any the limits accept, then no total is negative, the tax never exceeds the total and the balance is total − paid', () => {
    fc.assert(
      fc.property(acceptedLinesArb, (lines) => {
        const t = totalsOf(lines);
        const live = lines.items.filter((i) => !i.voided);

        expect(t.subtotalMinor).toBe(live.reduce((s, i) => s + i.quantity * i.amountMinor, 0));
        for (const v of [
          t.subtotalMinor,
          t.discountMinor,
          t.taxMinor,
          t.totalMinor,
          t.tipMinor,
          t.paidMinor,
        ]) {
          expect(Number.isSafeInteger(v)).toBe(true);
          expect(v).toBeGreaterThanOrEqual(0);
          expect(v).toBeLessThanOrEqual(MAX_INT32);
        }
        expect(t.discountMinor).toBeLessThanOrEqual(t.subtotalMinor);
        expect(t.totalMinor).toBe(t.subtotalMinor - t.discountMinor);
        expect(t.taxMinor).toBeLessThanOrEqual(t.totalMinor);
        expect(t.paidMinor).toBe(lines.payments.reduce((s, p) => s + p.amountMinor, 0));
        expect(t.tipMinor).toBe(lines.payments.reduce((s, p) => s + p.tipMinor, 0));
        expect(t.balanceMinor).toBe(t.totalMinor - t.paidMinor);
        expect(Math.abs(t.balanceMinor)).toBeLessThanOrEqual(MAX_INT32);
      }),
      { numRuns: 400 },
    );
  });

  it('When a discount is added, then the tax never grows and the total falls by what applies', () => {
    fc.assert(
      fc.property(acceptedLinesArb, fc.integer({ min: 0, max: 1_000_000 }), (lines, amountMinor) => {
        const before = totalsOf(lines);
        const after = totalsOf({
          ...lines,
          discounts: [...lines.discounts, { id: 'd', label: 'd', amountMinor }],
        });

        expect(after.taxMinor).toBeLessThanOrEqual(before.taxMinor);
        expect(after.totalMinor).toBe(Math.max(0, before.totalMinor - amountMinor));
      }),
      { numRuns: 300 },
    );
  });

  it('When a quotient is rounded half-even, then it is within half a unit of the exact value and ties go to even', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 10n ** 22n }),
        fc.bigInt({ min: 1n, max: 10n ** 12n }),
        (n, d) => {
          const q = roundHalfEven(n, d);
          const twiceError = 2n * (q * d - n);

          expect(twiceError <= d && twiceError >= -d).toBe(true);
          if (twiceError === d || twiceError === -d) expect(q % 2n).toBe(0n);
        },
      ),
      { numRuns: 400 },
    );
  });
});
