import type { DomainEvent, TableFreedReason } from '../events/domain-event';
import { without } from '../shared/id-set';
import type { Instant } from '../shared/instant';
import { fail, ok, type Outcome } from '../shared/outcome';

export const ORDER_STATUSES = ['open', 'closed', 'voided'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

/** Amounts and counts are 32-bit signed integers on the wire. */
export const MAX_INT32 = 2_147_483_647;

export interface OrderItem {
  label: string;
  amountMinor: number;
  quantity: number;
}

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
  spendMinor: number;
  currency: string;
  status: OrderStatus;
  /** The reservation that seated it; null for a walk-in. */
  reservationExternalId: string | null;
  items: OrderItem[];
  openedAt: Instant;
  closedAt: Instant | null;
}

/** The result of an order operation: the order as it now stands and the events it causes. */
export interface OrderChange {
  order: Order;
  events: DomainEvent[];
}

/** Who holds a table: the open order standing on it. */
export interface TableHolder {
  tableId: string;
  orderId: string;
  reservationExternalId: string | null;
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
  now: Instant;
}

/** Opens an order; the caller has checked that every table is free. */
export function openOrder(cmd: OpenOrderCommand): OrderChange {
  const order: Order = {
    id: cmd.id,
    locationId: cmd.locationId,
    tableIds: [...cmd.tableIds],
    covers: cmd.covers,
    spendMinor: 0,
    currency: cmd.currency,
    status: 'open',
    reservationExternalId: cmd.reservationExternalId,
    items: [],
    openedAt: cmd.now,
    closedAt: null,
  };
  return { order, events: order.tableIds.map((tableId) => occupiedEvent(order, tableId, cmd.now)) };
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

export function addItem(order: Order, item: OrderItem, now: Instant): Outcome<OrderChange> {
  if (order.status !== 'open') return notOpen(order);
  const spendMinor = order.spendMinor + item.amountMinor * item.quantity;
  if (!Number.isSafeInteger(spendMinor) || spendMinor > MAX_INT32) {
    return fail('validation_failed', `the order's spend would exceed ${MAX_INT32} minor units`, [
      { path: '/amountMinor', message: `spend would exceed ${MAX_INT32}` },
    ]);
  }
  const next: Order = { ...order, spendMinor, items: [...order.items, { ...item }] };
  return ok({ order: next, events: [spendEvent(next, now)] });
}

/** Closes (paid) or voids (cancelled on the till) an open order and frees its tables. */
export function finishOrder(order: Order, how: 'closed' | 'voided', now: Instant): Outcome<OrderChange> {
  if (order.status !== 'open') return notOpen(order);
  const done: Order = { ...order, status: how, closedAt: now };
  return ok({ order: done, events: order.tableIds.map((tableId) => freedEvent(order, tableId, how, now)) });
}

function notOpen(order: Order) {
  return fail('validation_failed', `order ${order.id} is ${order.status}, not open`, [
    { path: '/status', message: `order is ${order.status}` },
  ]);
}

function occupiedEvent(order: Order, tableId: string, now: Instant): DomainEvent {
  return {
    type: 'table.occupied',
    occurredAt: now,
    data: {
      tableId,
      orderId: order.id,
      reservationExternalId: order.reservationExternalId,
      covers: order.covers,
      occurredAt: now.toIso(),
    },
  };
}

function freedEvent(order: Order, tableId: string, reason: TableFreedReason, now: Instant): DomainEvent {
  return {
    type: 'table.freed',
    occurredAt: now,
    data: {
      tableId,
      orderId: order.id,
      reservationExternalId: order.reservationExternalId,
      reason,
      occurredAt: now.toIso(),
    },
  };
}

function spendEvent(order: Order, now: Instant): DomainEvent {
  return {
    type: 'table.spend_updated',
    occurredAt: now,
    data: {
      tableIds: [...order.tableIds],
      orderId: order.id,
      reservationExternalId: order.reservationExternalId,
      spendMinor: order.spendMinor,
      currency: order.currency,
      covers: order.covers,
      occurredAt: now.toIso(),
    },
  };
}
