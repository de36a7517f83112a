import type { DeliveryCursor, DeliveryStatus, Instant, OrderStatus, ReservationCursor } from '@pis/domain';
import { valid, type Checked } from '../validation/checked';
import type { DeliveryListQuery, OrderListQuery, ReservationListQuery } from '../wire-types';
import { decodeDeliveryCursor, decodeReservationCursor } from './cursor';
import { toInstant } from './instant';

export const DEFAULT_LIST_LIMIT = 100;

export interface ReservationListCommand {
  from: Instant;
  to: Instant;
  limit: number;
  after: ReservationCursor | null;
}

/** `from < to` and the 31-day window are the domain's rules; a malformed cursor is refused here. */
export function toReservationListCommand(query: ReservationListQuery): Checked<ReservationListCommand> {
  const after = query.cursor === undefined ? valid(null) : decodeReservationCursor(query.cursor);
  if (!after.ok) return after;
  return valid({
    from: toInstant(query.from),
    to: toInstant(query.to),
    limit: query.limit ?? DEFAULT_LIST_LIMIT,
    after: after.value,
  });
}

export interface DeliveryListCommand {
  endpointId: string | null;
  status: DeliveryStatus | null;
  limit: number;
  after: DeliveryCursor | null;
}

export function toDeliveryListCommand(query: DeliveryListQuery): Checked<DeliveryListCommand> {
  const after = query.cursor === undefined ? valid(null) : decodeDeliveryCursor(query.cursor);
  if (!after.ok) return after;
  return valid({
    endpointId: query.endpointId ?? null,
    status: query.status ?? null,
    limit: query.limit ?? DEFAULT_LIST_LIMIT,
    after: after.value,
  });
}

export const toOrderListCommand = (query: OrderListQuery): { status: OrderStatus | null } => ({
  status: query.status ?? null,
});
