import { ok } from '../../shared/outcome';
import { requireLocation } from '../access/require-location';
import type { ListOrders } from '../use-case.types';

export const listOrders: ListOrders = async (deps, { locationId, status }) => {
  const location = await requireLocation(deps, locationId);
  if (!location.ok) return location;
  return ok({ orders: await deps.queries.orders.list(locationId, status) });
};
