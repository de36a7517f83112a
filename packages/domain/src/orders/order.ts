import type { DomainEvent } from '../events/domain-event';
import { without } from '../kernel/id-set';
import type { Instant } from '../kernel/instant';
import { fail, ok, type Failure, type Outcome } from '../kernel/outcome';
import { EMPTY_LINES, makeCheck, type Check, type CheckLines, type CheckPayment } from './check';
import { closedEvent, freedEvent, occupiedEvent, ownerOf, spendEvent } from './order-events';
import type { ServiceStatus } from './service-status';

/** `voided` is the till's cancel (ours: decision 0032); `closed` is paid and done. */
export const ORDER_STATUSES = ['open', 'closed', 'voided'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

/**
 * A till order. It belongs to the till: reservation writes may move it or change its
 * covers while it is open, but never close, void or reopen it. A table is taken while an
 * open order stands on it.
 */
export interface Order {
  id: string;
  locationId: string;
  tableIds: string[];
  covers: number;
  /** The check's total; set with the check by `withLines`, never on its own. */
  spendMinor: number;
  currency: string;
  status: OrderStatus;
  /** The reservation that seated it; null for a walk-in. */
  reservationExternalId: string | null;
  /**
   * The provider that owns that reservation (absent for a walk-in): what a reader may see of
   * `reservationExternalId` follows from it (`visibleTo`).
   */
  reservationProviderId?: string;
  check: Check;
  /** null until the till reports one. */
  serviceStatus: ServiceStatus | null;
  openedAt: Instant;
  closedAt: Instant | null;
}

/** The result of an order operation: the order as it now stands and the events it causes. */
export interface OrderChange {
  order: Order;
  events: DomainEvent[];
}

/** The order with a new check: the totals and the spend are those of `lines`. */
export function withLines(order: Order, lines: CheckLines): Order {
  const check = makeCheck(lines);
  return { ...order, check, spendMinor: check.totalMinor };
}

/** Who holds a table: the open order standing on it. */
export interface TableHolder {
  tableId: string;
  orderId: string;
  reservationExternalId: string | null;
  /** The provider that owns the reservation (absent for a walk-in). */
  reservationProviderId?: string;
}

/**
 * The first holder (in table-id order) that is not `ownOrderId`: whom a 409
 * `table_occupied` names. null when every table is free or already the order's own.
 */
export function otherHolder(holders: readonly TableHolder[], ownOrderId: string | null): TableHolder | null {
  const sorted = [...holders].sort((a, b) => (a.tableId < b.tableId ? -1 : a.tableId > b.tableId ? 1 : 0));
  return sorted.find((h) => h.orderId !== ownOrderId) ?? null;
}

export interface OpenOrderCommand {
  id: string;
  locationId: string;
  tableIds: string[];
  covers: number;
  currency: string;
  reservationExternalId: string | null;
  /** The provider that owns the seating reservation; left out for a walk-in. */
  reservationProviderId?: string;
  now: Instant;
  /** The reservation's prepayment, recorded as a `deposit` payment (see `depositOf`). */
  deposit?: { id: string; amountMinor: number } | null;
}

/**
 * Opens an order; the caller has checked that every table is free. `table.occupied` per
 * table, then `table.spend_updated` when a deposit starts the check.
 */
export function openOrder(cmd: OpenOrderCommand): OrderChange {
  const deposit: CheckPayment[] = cmd.deposit
    ? [
        {
          id: cmd.deposit.id,
          amountMinor: cmd.deposit.amountMinor,
          tipMinor: 0,
          tender: 'deposit',
          paidAt: cmd.now,
        },
      ]
    : [];
  const order = withLines(
    {
      id: cmd.id,
      locationId: cmd.locationId,
      tableIds: [...cmd.tableIds],
      covers: cmd.covers,
      spendMinor: 0,
      currency: cmd.currency,
      status: 'open',
      reservationExternalId: cmd.reservationExternalId,
      ...ownerOf(cmd),
      check: makeCheck(EMPTY_LINES),
      serviceStatus: null,
      openedAt: cmd.now,
      closedAt: null,
    },
    { ...EMPTY_LINES, payments: deposit },
  );
  const events = order.tableIds.map((tableId) => occupiedEvent(order, tableId, cmd.now));
  return { order, events: deposit.length > 0 ? [...events, spendEvent(order, cmd.now)] : events };
}

/**
 * The deposit a seating records: the reservation's prepaid amount when it is above zero and
 * in the location's currency; null otherwise (a prepayment in another currency is the
 * provider's to settle).
 */
export function depositOf(
  prepayment: { prepaidMinor: number; currency: string } | null,
  locationCurrency: string,
): number | null {
  if (prepayment === null || prepayment.prepaidMinor <= 0) return null;
  return prepayment.currency === locationCurrency ? prepayment.prepaidMinor : null;
}

/**
 * Moves an open order onto `tableIds` (the caller has checked they are free or its own)
 * and gives it `covers`, in one step: `table.freed` (moved) for each table it leaves,
 * `table.occupied` (with the new covers) for each it takes, then `table.spend_updated`
 * when the covers changed. No event is made when neither differs (the table list may be
 * reordered).
 */
export function reseatOrder(
  order: Order,
  tableIds: string[],
  covers: number,
  now: Instant,
): Outcome<OrderChange> {
  if (order.status !== 'open') return notOpen(order);
  const next: Order = { ...order, tableIds: [...tableIds], covers };
  const events: DomainEvent[] = [
    ...without(order.tableIds, tableIds).map((tableId) => freedEvent(order, tableId, 'moved', now)),
    ...without(tableIds, order.tableIds).map((tableId) => occupiedEvent(next, tableId, now)),
    ...(covers !== order.covers ? [spendEvent(next, now)] : []),
  ];
  return ok({ order: next, events });
}

/** The till moves an open order; see `reseatOrder`. */
export function moveOrder(order: Order, tableIds: string[], now: Instant): Outcome<OrderChange> {
  return reseatOrder(order, tableIds, order.covers, now);
}

/** Changes the covers of an open order; the new figures go out as `table.spend_updated`. */
export function changeCovers(order: Order, covers: number, now: Instant): Outcome<OrderChange> {
  return reseatOrder(order, order.tableIds, covers, now);
}

/**
 * Closes (paid) or voids (cancelled on the till) an open order and frees its tables:
 * `table.freed` per table, then, for a close, `order.closed` with the final check.
 */
export function finishOrder(order: Order, how: 'closed' | 'voided', now: Instant): Outcome<OrderChange> {
  if (order.status !== 'open') return notOpen(order);
  const done: Order = { ...order, status: how, closedAt: now };
  const freed = order.tableIds.map((tableId) => freedEvent(order, tableId, how, now));
  return ok({ order: done, events: how === 'closed' ? [...freed, closedEvent(done)] : freed });
}

/** Moving, closing or voiding an order that is no longer open: the body asks the impossible. */
function notOpen(order: Order): Failure {
  return fail('validation_failed', `order ${order.id} is ${order.status}, not open`, [
    { path: '/status', message: `order is ${order.status}` },
  ]);
}
