import type { CheckData, CheckTotalsData, DomainEvent, TableFreedReason } from '../events/domain-event';
import type { Instant } from '../kernel/instant';
import type { Check } from './check';
import type { Order } from './order';

/** The owner field of an order or event: present only when a reservation's provider owns it. */
export const ownerOf = (from: { reservationProviderId?: string }): { reservationProviderId?: string } =>
  from.reservationProviderId === undefined ? {} : { reservationProviderId: from.reservationProviderId };

/** The check in its wire form: what order answers and `order.closed` carry. */
export function checkData(check: Check): CheckData {
  return {
    items: check.items.map((i) => ({ ...i })),
    discounts: check.discounts.map((d) => ({ ...d })),
    payments: check.payments.map((p) => ({
      id: p.id,
      amountMinor: p.amountMinor,
      tipMinor: p.tipMinor,
      tender: p.tender,
      paidAt: p.paidAt.toIso(),
    })),
    subtotalMinor: check.subtotalMinor,
    discountMinor: check.discountMinor,
    taxMinor: check.taxMinor,
    totalMinor: check.totalMinor,
    tipMinor: check.tipMinor,
    paidMinor: check.paidMinor,
    balanceMinor: check.balanceMinor,
  };
}

export function occupiedEvent(order: Order, tableId: string, now: Instant): DomainEvent {
  return {
    type: 'table.occupied',
    occurredAt: now,
    ...ownerOf(order),
    data: {
      tableId,
      orderId: order.id,
      reservationExternalId: order.reservationExternalId,
      covers: order.covers,
      occurredAt: now.toIso(),
    },
  };
}

export function freedEvent(
  order: Order,
  tableId: string,
  reason: TableFreedReason,
  now: Instant,
): DomainEvent {
  return {
    type: 'table.freed',
    occurredAt: now,
    ...ownerOf(order),
    data: {
      tableId,
      orderId: order.id,
      reservationExternalId: order.reservationExternalId,
      reason,
      occurredAt: now.toIso(),
    },
  };
}

/** Sent on every change of the check and of the covers. */
export function spendEvent(order: Order, now: Instant): DomainEvent {
  return {
    type: 'table.spend_updated',
    occurredAt: now,
    ...ownerOf(order),
    data: {
      tableIds: [...order.tableIds],
      orderId: order.id,
      reservationExternalId: order.reservationExternalId,
      spendMinor: order.spendMinor,
      currency: order.currency,
      covers: order.covers,
      occurredAt: now.toIso(),
      totals: totalsData(order.check),
    },
  };
}

export function statusEvent(order: Order, now: Instant): DomainEvent {
  if (order.serviceStatus === null) throw new Error(`order ${order.id} has no service status to announce`);
  return {
    type: 'table.status_changed',
    occurredAt: now,
    ...ownerOf(order),
    data: {
      tableIds: [...order.tableIds],
      orderId: order.id,
      reservationExternalId: order.reservationExternalId,
      serviceStatus: order.serviceStatus,
      occurredAt: now.toIso(),
    },
  };
}

export function closedEvent(order: Order): DomainEvent {
  if (order.closedAt === null) throw new Error(`order ${order.id} is not closed`);
  return {
    type: 'order.closed',
    occurredAt: order.closedAt,
    ...ownerOf(order),
    data: {
      orderId: order.id,
      reservationExternalId: order.reservationExternalId,
      tableIds: [...order.tableIds],
      covers: order.covers,
      currency: order.currency,
      openedAt: order.openedAt.toIso(),
      closedAt: order.closedAt.toIso(),
      check: checkData(order.check),
    },
  };
}

const totalsData = (check: Check): CheckTotalsData => ({
  subtotalMinor: check.subtotalMinor,
  discountMinor: check.discountMinor,
  taxMinor: check.taxMinor,
  tipMinor: check.tipMinor,
  paidMinor: check.paidMinor,
  balanceMinor: check.balanceMinor,
});
