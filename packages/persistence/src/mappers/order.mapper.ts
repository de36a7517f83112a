import type { Order, OrderStatus } from '@pis/domain';
import { instantFromDb, instantToDb, nullableInstantFromDb, nullableInstantToDb } from '../db-instant';
import type { OrderRow } from '../schemas/order.schema';

export const orderMapper = {
  toDomain(row: OrderRow): Order {
    return {
      id: row.id,
      locationId: row.location_id,
      tableIds: [...row.table_ids],
      covers: row.covers,
      spendMinor: row.spend_minor,
      currency: row.currency,
      status: row.status as OrderStatus,
      reservationExternalId: row.reservation_external_id,
      items: row.items.map((i) => ({ label: i.label, amountMinor: i.amountMinor, quantity: i.quantity })),
      openedAt: instantFromDb(row.opened_at),
      closedAt: nullableInstantFromDb(row.closed_at),
    };
  },
  toPersistence(order: Order): OrderRow {
    return {
      id: order.id,
      location_id: order.locationId,
      table_ids: [...order.tableIds],
      covers: order.covers,
      spend_minor: order.spendMinor,
      currency: order.currency,
      status: order.status,
      reservation_external_id: order.reservationExternalId,
      items: order.items.map((i) => ({ label: i.label, amountMinor: i.amountMinor, quantity: i.quantity })),
      opened_at: instantToDb(order.openedAt),
      closed_at: nullableInstantToDb(order.closedAt),
    };
  },
};
