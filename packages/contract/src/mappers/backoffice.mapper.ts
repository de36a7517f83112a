import { checkData, locationShape, type Check, type Instant, type Location, type Order } from '@pis/domain';
import type {
  ApiKeyResponse,
  CheckResponse,
  LocationCreateRequest,
  LocationResponse,
  OrderDiscountRequest,
  OrderItemRequest,
  OrderListResponse,
  OrderPaymentRequest,
  OrderResponse,
} from '../wire-types';
import { WIRE_INSTANTS } from './instant';

export const DEFAULT_CURRENCY = 'EUR';

export const toLocationCommand = (body: LocationCreateRequest) => ({
  name: body.name,
  brand: body.brand,
  currency: body.currency ?? DEFAULT_CURRENCY,
  sandbox: body.sandbox ?? false,
});

const locationForm = locationShape.omit('createdAt');
export const toLocationResponse = (l: Location): LocationResponse => locationForm.encode(l, WIRE_INSTANTS);

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
  taxRateBps: body.taxRateBps ?? 0,
  course: body.course ?? 'other',
});

export const toOrderDiscount = (body: OrderDiscountRequest) => ({
  label: body.label,
  amountMinor: body.amountMinor,
});

export const toOrderPayment = (body: OrderPaymentRequest) => ({
  amountMinor: body.amountMinor,
  tipMinor: body.tipMinor ?? 0,
  tender: body.tender,
});

/** The check as every order answer and `order.closed` show it (one rendering, the domain's). */
export const toCheckResponse = (check: Check): CheckResponse => checkData(check);

/** The till's view of an order; its locationId is not part of it. */
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
  check: toCheckResponse(o.check),
  serviceStatus: o.serviceStatus,
});

export const toOrderListResponse = (list: { orders: Order[] }): OrderListResponse => ({
  orders: list.orders.map(toOrderResponse),
});
