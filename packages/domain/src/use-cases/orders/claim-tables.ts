import { VENUE, visibleTo, type Reader } from '../../access/visibility';
import { otherHolder, type Order } from '../../orders/order';
import { ok, occupied, type Outcome } from '../../kernel/outcome';
import type { Transaction } from '../../system/unit-of-work.port';

/**
 * Locks the target tables, and the tables the order already stands on, in id order, then
 * refuses with `table_occupied` when another open order stands on a target table. The
 * order's own tables count as free. `order` is null when a new order is to open. The refusal's
 * `occupiedBy` is what `reader` may see of the holder (`visibleTo`): the venue sees every
 * reservation, a provider only its own.
 */
export async function claimTables(
  tx: Transaction,
  locationId: string,
  targetIds: readonly string[],
  order: Pick<Order, 'id' | 'tableIds'> | null,
  reader: Reader = VENUE,
): Promise<Outcome<void>> {
  const holders = await tx.orders.lockTables(locationId, [...(order?.tableIds ?? []), ...targetIds]);
  const targets = new Set(targetIds);
  const holder = otherHolder(
    holders.filter((h) => targets.has(h.tableId)),
    order?.id ?? null,
  );
  if (holder === null) return ok(undefined);
  return occupied(
    `table ${holder.tableId} is taken by order ${holder.orderId}`,
    visibleTo(reader, holder.reservationProviderId, {
      orderId: holder.orderId,
      reservationExternalId: holder.reservationExternalId,
    }),
  );
}
