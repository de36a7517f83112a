import { makeCheck, roundHalfEven, totalsOf, type CheckItem, type CheckLines } from './check';

const item = (amountMinor: number, taxRateBps: number, quantity = 1, voided = false): CheckItem => ({
  id: `i-${amountMinor}-${taxRateBps}-${quantity}`,
  label: 'x',
  quantity,
  amountMinor,
  taxRateBps,
  course: 'other',
  voided,
});
const lines = (
  items: CheckItem[],
  discounts: number[] = [],
  payments: [number, number][] = [],
): CheckLines => ({
  items,
  discounts: discounts.map((amountMinor, n) => ({ id: `d-${n}`, label: 'd', amountMinor })),
  payments: payments.map(([amountMinor, tipMinor], n) => ({
    id: `p-${n}`,
    amountMinor,
    tipMinor,
    tender: 'card',
    paidAt: undefined as never,
  })),
});

describe('roundHalfEven', () => {
  it.each<[bigint, bigint, bigint]>([
    [0n, 7n, 0n],
    [1n, 3n, 0n],
    [2n, 3n, 1n],
    [1n, 2n, 0n],
    [3n, 2n, 2n],
    [5n, 2n, 2n],
    [7n, 2n, 4n],
    [15n, 10n, 2n],
    [25n, 10n, 2n],
    [26n, 10n, 3n],
    [24n, 10n, 2n],
    [10n ** 20n + 5n, 10n, 10n ** 19n],
  ])('When %d / %d is rounded, then it is %d', (n, d, expected) => {
    expect(roundHalfEven(n, d)).toBe(expected);
  });

  it('When the denominator is not positive or the numerator negative, then it throws', () => {
    expect(() => roundHalfEven(1n, 0n)).toThrow(RangeError);
    expect(() => roundHalfEven(-1n, 2n)).toThrow(RangeError);
  });
});

describe('totalsOf: tax included in the prices, rounded half-even', () => {
  it.each<[string, CheckLines, number]>([
    ['no items', lines([]), 0],
    ['a rate of 0', lines([item(1999, 0)]), 0],
    ['10 % on 1100, exact', lines([item(1100, 1000)]), 100],
    ['20 % on 1000: 166.67 rounds up', lines([item(1000, 2000)]), 167],
    ['20 % on 1003: 167.17 rounds down', lines([item(1003, 2000)]), 167],
    ['100 % on 21: 10.5 rounds to the even 10', lines([item(21, 10000)]), 10],
    ['100 % on 23: 11.5 rounds to the even 12', lines([item(23, 10000)]), 12],
    ['100 % on 1: 0.5 rounds to the even 0', lines([item(1, 10000)]), 0],
    ['100 % on 3: 1.5 rounds to the even 2', lines([item(3, 10000)]), 2],
    ['per line, not per unit: 3 × 7 at 100 %, 10.5 rounds to 10', lines([item(7, 10000, 3)]), 10],
    [
      'each line rounded, then summed: two lines of 21 at 100 %',
      lines([item(21, 10000), item(21, 10000)]),
      20,
    ],
    ['mixed rates', lines([item(1100, 1000), item(1000, 2000), item(500, 0)]), 267],
    ['a voided item counts for nothing', lines([item(1100, 1000), item(1000, 2000, 1, true)]), 100],
    ['the largest line at the largest rate', lines([item(2_147_483_647, 10000)]), 1_073_741_824],
  ])('When the check holds %s, then the tax is %d', (_c, l, tax) => {
    expect(totalsOf(l).taxMinor).toBe(tax);
  });

  it.each<[string, CheckLines, { discountMinor: number; totalMinor: number; taxMinor: number }]>([
    [
      '20 % on 1200 with 300 off: 200 × 900 / 1200 = 150',
      lines([item(1200, 2000)], [300]),
      {
        discountMinor: 300,
        totalMinor: 900,
        taxMinor: 150,
      },
    ],
    [
      '20 % on 1200 with 100 off: 183.33 rounds down',
      lines([item(1200, 2000)], [100]),
      {
        discountMinor: 100,
        totalMinor: 1100,
        taxMinor: 183,
      },
    ],
    [
      'T = 1 on 2 with 1 off: 0.5 rounds to the even 0',
      lines([item(2, 10000)], [1]),
      {
        discountMinor: 1,
        totalMinor: 1,
        taxMinor: 0,
      },
    ],
    [
      'T = 3 on 6 with 3 off: 1.5 rounds to the even 2',
      lines([item(6, 10000)], [3]),
      {
        discountMinor: 3,
        totalMinor: 3,
        taxMinor: 2,
      },
    ],
    [
      'T = 5 on 10 with 1 off: 4.5 rounds to the even 4',
      lines([item(10, 10000)], [1]),
      {
        discountMinor: 1,
        totalMinor: 9,
        taxMinor: 4,
      },
    ],
    [
      'two discounts add up',
      lines([item(1000, 0)], [100, 250]),
      { discountMinor: 350, totalMinor: 650, taxMinor: 0 },
    ],
    [
      'discounts beyond the subtotal stop at it',
      lines([item(1100, 1000)], [800, 800]),
      {
        discountMinor: 1100,
        totalMinor: 0,
        taxMinor: 0,
      },
    ],
    [
      'a discount with no live item applies nothing',
      lines([item(900, 1000, 1, true)], [500]),
      {
        discountMinor: 0,
        totalMinor: 0,
        taxMinor: 0,
      },
    ],
    [
      'a discount of 0 is no discount: tax stays T',
      lines([item(1000, 2000)], [0]),
      {
        discountMinor: 0,
        totalMinor: 1000,
        taxMinor: 167,
      },
    ],
  ])('When %s, then the figures are as listed', (_c, l, expected) => {
    expect(totalsOf(l)).toMatchObject(expected);
  });

  it('When payments carry tips, then paid excludes the tips and the balance is total − paid, negative when overpaid', () => {
    const l = lines(
      [item(1000, 0, 2)],
      [],
      [
        [1500, 200],
        [700, 0],
      ],
    );

    expect(totalsOf(l)).toEqual({
      subtotalMinor: 2000,
      discountMinor: 0,
      taxMinor: 0,
      totalMinor: 2000,
      tipMinor: 200,
      paidMinor: 2200,
      balanceMinor: -200,
    });
  });

  it('When a check is made, then it carries copies of the lines and their totals', () => {
    const l = lines([item(1000, 2000)], [100]);

    const check = makeCheck(l);
    l.items[0]!.voided = true;

    expect(check.items[0]!.voided).toBe(false);
    expect(check).toMatchObject({ subtotalMinor: 1000, discountMinor: 100, totalMinor: 900, taxMinor: 150 });
  });
});
