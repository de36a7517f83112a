import { ok } from '../../kernel/outcome';
import { requireLocation } from '../access/require-location';
import type { Order, OrderStatus } from '../../orders/order';
import type { UseCase } from '../use-case.types';

export type ListOrders = UseCase<{ locationId: string; status: OrderStatus | null }, { orders: Order[] }>;

export const listOrders: ListOrders = async (deps, { locationId, status }) => {
  const location = await requireLocation(deps, locationId);
  if (!location.ok) return location;
  return ok({ orders: await deps.queries.orders.list(locationId, status) });
};
