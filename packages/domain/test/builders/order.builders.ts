import { randomUUID } from 'node:crypto';
import {
  EMPTY_LINES,
  makeCheck,
  withLines,
  type CheckDiscount,
  type CheckItem,
  type CheckLines,
  type CheckPayment,
  type Order,
} from '../../src';
import { at } from './instants';

/** Everything of an order but its check, which `lines` gives (the totals and spend follow). */
export type OrderOverrides = Partial<Omit<Order, 'check' | 'spendMinor'>> & { lines?: Partial<CheckLines> };

/** An open walk-in order record on `tableIds`, for port-level tests. */
export function anOrder(locationId: string, tableIds: string[], overrides: OrderOverrides = {}): Order {
  const { lines, ...fields } = overrides;
  const order: Order = {
    id: randomUUID(),
    locationId,
    tableIds,
    covers: 2,
    spendMinor: 0,
    currency: 'EUR',
    status: 'open',
    reservationExternalId: null,
    check: makeCheck(EMPTY_LINES),
    serviceStatus: null,
    openedAt: at('2026-11-21T19:00:00.123456Z'),
    closedAt: null,
    ...fields,
  };
  return withLines(order, { ...EMPTY_LINES, ...lines });
}

export const anItem = (overrides: Partial<CheckItem> = {}): CheckItem => ({
  id: randomUUID(),
  label: 'Espresso',
  quantity: 1,
  amountMinor: 250,
  taxRateBps: 0,
  course: 'other',
  voided: false,
  ...overrides,
});

export const aDiscount = (overrides: Partial<CheckDiscount> = {}): CheckDiscount => ({
  id: randomUUID(),
  label: 'Regulars',
  amountMinor: 100,
  ...overrides,
});

export const aPayment = (overrides: Partial<CheckPayment> = {}): CheckPayment => ({
  id: randomUUID(),
  amountMinor: 1000,
  tipMinor: 0,
  tender: 'card',
  paidAt: at('2026-11-21T20:00:00.000001Z'),
  ...overrides,
});
