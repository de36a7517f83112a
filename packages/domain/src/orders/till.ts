import type { Instant } from '../kernel/instant';
import { fail, ok, type Failure, type Outcome } from '../kernel/outcome';
import {
  MAX_CHECK_LINES,
  MAX_INT32,
  overflowingSum,
  type CheckItem,
  type CheckLines,
  type Course,
  type Tender,
} from './check';
import { withLines, type Order, type OrderChange } from './order';
import { spendEvent, statusEvent } from './order-events';
import type { ServiceStatus } from './service-status';

/**
 * The till's writes on an order's check and service status. Each refuses an order that is
 * no longer open with `order_closed`, and answers the order as it now stands with the events
 * of the change: `table.spend_updated` for every change of the check, `table.status_changed`
 * for a new service status. A write that changes nothing makes no event.
 */

export interface NewItem {
  id: string;
  label: string;
  amountMinor: number;
  quantity: number;
  taxRateBps: number;
  course: Course;
}

export interface NewDiscount {
  id: string;
  label: string;
  amountMinor: number;
}

export interface NewPayment {
  id: string;
  amountMinor: number;
  tipMinor: number;
  tender: Tender;
}

export function addItem(order: Order, item: NewItem, now: Instant): Outcome<OrderChange> {
  const lines = linesWith(order, 'items', { ...item, voided: false });
  return lines.ok ? changeCheck(order, lines.value, now) : lines;
}

/** Voids one live item; voiding a voided one changes nothing. */
export function voidItem(order: Order, itemId: string, now: Instant): Outcome<OrderChange> {
  if (order.status !== 'open') return orderClosed(order);
  const item = order.check.items.find((i) => i.id === itemId);
  if (item === undefined) return fail('not_found', `order ${order.id} has no item ${itemId}`);
  if (item.voided) return ok({ order, events: [] });
  const items: CheckItem[] = order.check.items.map((i) => (i.id === itemId ? { ...i, voided: true } : i));
  return changeCheck(order, { ...order.check, items }, now);
}

export function addDiscount(order: Order, discount: NewDiscount, now: Instant): Outcome<OrderChange> {
  const lines = linesWith(order, 'discounts', { ...discount });
  return lines.ok ? changeCheck(order, lines.value, now) : lines;
}

export function addPayment(order: Order, payment: NewPayment, now: Instant): Outcome<OrderChange> {
  const lines = linesWith(order, 'payments', { ...payment, paidAt: now });
  return lines.ok ? changeCheck(order, lines.value, now) : lines;
}

export function setServiceStatus(order: Order, status: ServiceStatus, now: Instant): Outcome<OrderChange> {
  if (order.status !== 'open') return orderClosed(order);
  if (order.serviceStatus === status) return ok({ order, events: [] });
  const next: Order = { ...order, serviceStatus: status };
  return ok({ order: next, events: [statusEvent(next, now)] });
}

/** A till write on an order that is closed or voided (409). */
export function orderClosed(order: Order): Failure {
  return fail('order_closed', `order ${order.id} is ${order.status}; its check takes no more writes`);
}

const AMOUNT_PATHS = {
  subtotal: '/amountMinor',
  discounts: '/amountMinor',
  payments: '/amountMinor',
  tips: '/tipMinor',
} as const;

/** The order's lines with one more of `kind`, within the limits of a check. */
function linesWith<K extends keyof CheckLines>(
  order: Order,
  kind: K,
  line: CheckLines[K][number],
): Outcome<CheckLines> {
  if (order.status !== 'open') return orderClosed(order);
  if (order.check[kind].length >= MAX_CHECK_LINES) {
    return fail('validation_failed', `a check holds at most ${MAX_CHECK_LINES} ${kind}`, [
      { path: '', message: `the check already holds ${MAX_CHECK_LINES} ${kind}` },
    ]);
  }
  const lines: CheckLines = { ...order.check, [kind]: [...order.check[kind], line] };
  const over = overflowingSum(lines);
  if (over === null) return ok(lines);
  return fail('validation_failed', `the check's ${over} would exceed ${MAX_INT32} minor units`, [
    { path: AMOUNT_PATHS[over], message: `the ${over} would exceed ${MAX_INT32}` },
  ]);
}

function changeCheck(order: Order, lines: CheckLines, now: Instant): Outcome<OrderChange> {
  const next = withLines(order, lines);
  return ok({ order: next, events: [spendEvent(next, now)] });
}
