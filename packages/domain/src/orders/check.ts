import type { Instant } from '../kernel/instant';

/** Amounts and counts are 32-bit signed integers on the wire. */
export const MAX_INT32 = 2_147_483_647;

export const COURSES = ['starter', 'main', 'dessert', 'drink', 'other'] as const;
export type Course = (typeof COURSES)[number];

export const TENDERS = ['card', 'cash', 'voucher', 'deposit', 'other'] as const;
export type Tender = (typeof TENDERS)[number];

/** Basis points: 10000 is 100 %. */
export const MAX_TAX_RATE_BPS = 10_000;

/** Lines of each kind one check may hold (docs/reference/limits-and-formats.md#checks). */
export const MAX_CHECK_LINES = 500;

export interface CheckItem {
  id: string;
  label: string;
  quantity: number;
  /** Unit price, tax included. */
  amountMinor: number;
  taxRateBps: number;
  course: Course;
  /** A voided item stays on the check and counts for nothing. */
  voided: boolean;
}

export interface CheckDiscount {
  id: string;
  label: string;
  amountMinor: number;
}

export interface CheckPayment {
  id: string;
  amountMinor: number;
  tipMinor: number;
  tender: Tender;
  paidAt: Instant;
}

/** What the till wrote; every figure of the check follows from these. */
export interface CheckLines {
  items: CheckItem[];
  discounts: CheckDiscount[];
  payments: CheckPayment[];
}

export interface CheckTotals {
  /** Σ quantity × amount of the live items. */
  subtotalMinor: number;
  /** min(Σ discounts, subtotal). */
  discountMinor: number;
  /** The tax included in the total (see `totalsOf`). */
  taxMinor: number;
  /** subtotal − discount: the order's spend. */
  totalMinor: number;
  tipMinor: number;
  /** Σ payment amounts, tips apart. */
  paidMinor: number;
  /** total − paid; negative when a refund is due. */
  balanceMinor: number;
}

/** The check as the order carries it: its lines and the totals derived from them. */
export type Check = CheckLines & CheckTotals;

export const EMPTY_LINES: CheckLines = { items: [], discounts: [], payments: [] };

/** The one way to make a check: the totals are always those of the lines. */
export function makeCheck(lines: CheckLines): Check {
  return {
    items: lines.items.map((i) => ({ ...i })),
    discounts: lines.discounts.map((d) => ({ ...d })),
    payments: lines.payments.map((p) => ({ ...p })),
    ...totalsOf(lines),
  };
}

/**
 * The totals of a check. Tax is included in the prices: per live item
 * round-half-even(line × rate / (10000 + rate)), summed to T; when a discount applies the
 * tax shrinks with the total, round-half-even(T × total / subtotal). Sums use BigInt, so no
 * intermediate product loses a unit, whatever the lines (the limits keep the results in int32).
 */
export function totalsOf(lines: CheckLines): CheckTotals {
  let subtotal = 0n;
  let includedTax = 0n;
  for (const item of lines.items) {
    if (item.voided) continue;
    const line = BigInt(item.quantity) * BigInt(item.amountMinor);
    subtotal += line;
    includedTax += roundHalfEven(line * BigInt(item.taxRateBps), BigInt(MAX_TAX_RATE_BPS + item.taxRateBps));
  }
  const discounts = sum(lines.discounts.map((d) => d.amountMinor));
  const discount = discounts < subtotal ? discounts : subtotal;
  const total = subtotal - discount;
  const tax = discount === 0n ? includedTax : roundHalfEven(includedTax * total, subtotal);
  const paid = sum(lines.payments.map((p) => p.amountMinor));
  return {
    subtotalMinor: Number(subtotal),
    discountMinor: Number(discount),
    taxMinor: Number(tax),
    totalMinor: Number(total),
    tipMinor: Number(sum(lines.payments.map((p) => p.tipMinor))),
    paidMinor: Number(paid),
    balanceMinor: Number(total - paid),
  };
}

/** numerator / denominator rounded to the nearest integer, ties to the even one; both ≥ 0, denominator > 0. */
export function roundHalfEven(numerator: bigint, denominator: bigint): bigint {
  if (numerator < 0n || denominator <= 0n) throw new RangeError('roundHalfEven takes n ≥ 0 and d > 0');
  const quotient = numerator / denominator;
  const twiceRemainder = (numerator % denominator) * 2n;
  if (twiceRemainder > denominator) return quotient + 1n;
  if (twiceRemainder < denominator) return quotient;
  return quotient % 2n === 0n ? quotient : quotient + 1n;
}

/**
 * The sums the wire carries as int32 that the lines could push past it: subtotal, discounts,
 * payments and tips. The name of the first one over the bound, or null when all fit.
 */
export function overflowingSum(lines: CheckLines): 'subtotal' | 'discounts' | 'payments' | 'tips' | null {
  const live = lines.items.filter((i) => !i.voided);
  const sums = {
    subtotal: sum(live.map((i) => i.quantity * i.amountMinor)),
    discounts: sum(lines.discounts.map((d) => d.amountMinor)),
    payments: sum(lines.payments.map((p) => p.amountMinor)),
    tips: sum(lines.payments.map((p) => p.tipMinor)),
  };
  const over = (Object.keys(sums) as (keyof typeof sums)[]).find((k) => sums[k] > BigInt(MAX_INT32));
  return over ?? null;
}

function sum(values: number[]): bigint {
  let total = 0n;
  for (const v of values) total += BigInt(v);
  return total;
}
