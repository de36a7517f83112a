import type { Instant, Location, Order } from '@pis/domain';
import type {
  ApiKeyResponse,
  LocationCreateRequest,
  LocationResponse,
  OrderItemRequest,
  OrderListResponse,
  OrderResponse,
} from '../wire-types';

export const DEFAULT_CURRENCY = 'EUR';

export const toLocationCommand = (body: LocationCreateRequest) => ({
  name: body.name,
  brand: body.brand,
  currency: body.currency ?? DEFAULT_CURRENCY,
});

export const toLocationResponse = (l: Location): LocationResponse => ({
  id: l.id,
  name: l.name,
  brand: l.brand,
  currency: l.currency,
});

export const toApiKeyResponse = (issued: {
  id: string;
  key: string;
  createdAt: Instant;
}): ApiKeyResponse => ({
  id: issued.id,
  key: issued.key,
  createdAt: issued.createdAt.toIso(),
});

export const toOrderItem = (body: OrderItemRequest) => ({
  label: body.label,
  amountMinor: body.amountMinor,
  quantity: body.quantity ?? 1,
});

/** The till's view of an order; its items and locationId are not part of it. */
export const toOrderResponse = (o: Order): OrderResponse => ({
  id: o.id,
  tableIds: [...o.tableIds],
  covers: o.covers,
  spendMinor: o.spendMinor,
  currency: o.currency,
  status: o.status,
  reservationExternalId: o.reservationExternalId,
  openedAt: o.openedAt.toIso(),
  closedAt: o.closedAt === null ? null : o.closedAt.toIso(),
});

export const toOrderListResponse = (list: { orders: Order[] }): OrderListResponse => ({
  orders: list.orders.map(toOrderResponse),
});
