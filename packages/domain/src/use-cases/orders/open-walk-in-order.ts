import type { Reader } from '../../access/visibility';
import { checkTableIds } from '../../floorplan/table-check';
import { openOrder } from '../../orders/order';
import { ok } from '../../kernel/outcome';
import { requireLocation } from '../access/require-location';
import type { Order } from '../../orders/order';
import type { UseCase } from '../use-case.types';
import { claimTables } from './claim-tables';
import { checkOrderTables } from './order-tables';

/** `reader`: who asks (default the venue); a 409 names only what it may see of the holder. */
export type OpenWalkInOrder = UseCase<
  { locationId: string; tableIds: string[]; covers: number; reader?: Reader },
  Order
>;

/** A walk-in: the till opens an order on free tables of the published plan. */
export const openWalkInOrder: OpenWalkInOrder = async (deps, { locationId, tableIds, covers, reader }) => {
  const body = checkOrderTables(tableIds);
  if (!body.ok) return body;
  const location = await requireLocation(deps, locationId);
  if (!location.ok) return location;
  const now = deps.clock.now();
  return deps.uow.run(async (tx) => {
    const tables = checkTableIds(await tx.floorPlans.publishedTables(locationId, tableIds), tableIds);
    if (!tables.ok) return tables;
    const free = await claimTables(tx, locationId, tableIds, null, reader);
    if (!free.ok) return free;
    const change = openOrder({
      id: deps.ids.uuid(),
      locationId,
      tableIds,
      covers,
      currency: location.value.currency,
      reservationExternalId: null,
      now,
    });
    await tx.orders.insert(change.order);
    await tx.outbox.append(locationId, change.events);
    return ok(change.order);
  });
};
