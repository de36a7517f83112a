import {
  makeCheck,
  totalsOf,
  type CheckDiscount,
  type CheckItem,
  type Course,
  type Order,
  type OrderStatus,
  type ServiceStatus,
  type Tender,
} from '@pis/domain';
import { instantFromDb, instantToDb, nullableInstantFromDb, nullableInstantToDb } from '../db-instant';
import type { OrderDiscountJson, OrderItemJson, OrderRow } from '../schemas/order.schema';

/** An item or a discount has the same fields in the row as in the domain; copied field by field. */
const itemOf = (i: OrderItemJson | CheckItem): CheckItem => ({
  id: i.id,
  label: i.label,
  quantity: i.quantity,
  amountMinor: i.amountMinor,
  taxRateBps: i.taxRateBps,
  course: i.course as Course,
  voided: i.voided,
});
const discountOf = (d: OrderDiscountJson | CheckDiscount): CheckDiscount => ({
  id: d.id,
  label: d.label,
  amountMinor: d.amountMinor,
});

/**
 * The check's totals are never read from the row: they are derived again from the lines,
 * so a read cannot disagree with them. `spend_minor` is written from the same derivation.
 */
export const orderMapper = {
  toDomain(row: OrderRow): Order {
    const check = makeCheck({
      items: row.items.map(itemOf),
      discounts: row.discounts.map(discountOf),
      payments: row.payments.map((p) => ({
        id: p.id,
        amountMinor: p.amountMinor,
        tipMinor: p.tipMinor,
        tender: p.tender as Tender,
        paidAt: instantFromDb(p.paidAt),
      })),
    });
    return {
      id: row.id,
      locationId: row.location_id,
      tableIds: [...row.table_ids],
      covers: row.covers,
      spendMinor: check.totalMinor,
      currency: row.currency,
      status: row.status as OrderStatus,
      reservationExternalId: row.reservation_external_id,
      ...(row.reservation_provider_id === null ? {} : { reservationProviderId: row.reservation_provider_id }),
      check,
      serviceStatus: row.service_status as ServiceStatus | null,
      openedAt: instantFromDb(row.opened_at),
      closedAt: nullableInstantFromDb(row.closed_at),
    };
  },
  toPersistence(order: Order): OrderRow {
    const { check } = order;
    return {
      id: order.id,
      location_id: order.locationId,
      table_ids: [...order.tableIds],
      covers: order.covers,
      spend_minor: totalsOf(check).totalMinor,
      currency: order.currency,
      status: order.status,
      reservation_external_id: order.reservationExternalId,
      reservation_provider_id: order.reservationProviderId ?? null,
      items: check.items.map(itemOf),
      discounts: check.discounts.map(discountOf),
      payments: check.payments.map((p) => ({
        id: p.id,
        amountMinor: p.amountMinor,
        tipMinor: p.tipMinor,
        tender: p.tender,
        paidAt: instantToDb(p.paidAt),
      })),
      service_status: order.serviceStatus,
      opened_at: instantToDb(order.openedAt),
      closed_at: nullableInstantToDb(order.closedAt),
    };
  },
};
