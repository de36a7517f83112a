import { providerReader } from '../../access/visibility';
import type { DomainEvent } from '../../events/domain-event';
import { checkTableIds } from '../../floorplan/table-check';
import { depositOf, openOrder, reseatOrder, type Order } from '../../orders/order';
import type { Reservation } from '../../reservations/reservation';
import type { OrderIntent } from '../../reservations/reservation-write';
import { sameIdSet } from '../../kernel/id-set';
import type { Instant } from '../../kernel/instant';
import { ok, type Outcome } from '../../kernel/outcome';
import type { Transaction } from '../../system/unit-of-work.port';
import type { Deps } from '../deps';
import { claimTables } from '../orders/claim-tables';

/**
 * What an applied reservation write does beyond the reservation row: its table ids against
 * the published plan, then seating or moving the till order (with its occupancy check),
 * then the events. Returns the reservation as it is to be stored. `providerId` owns the
 * reservation: the order it opens carries it, and a 409 names only what it may see.
 */
export async function checkTablesAndSeat(
  deps: Deps,
  tx: Transaction,
  next: Reservation,
  intent: OrderIntent,
  now: Instant,
  providerId: string,
): Promise<Outcome<{ reservation: Reservation; events: DomainEvent[] }>> {
  if (next.tableIds.length > 0) {
    const tables = checkTableIds(
      await tx.floorPlans.publishedTables(next.locationId, next.tableIds),
      next.tableIds,
    );
    if (!tables.ok) return tables;
  }
  if (intent.kind === 'open') {
    const seated = await openSeatedOrder(deps, tx, next, now, providerId);
    if (!seated.ok) return seated;
    return ok({
      reservation: { ...next, linkedOrderId: seated.value.order.id },
      events: seated.value.events,
    });
  }
  if (intent.kind === 'follow') {
    const followed = await followSeating(tx, next.locationId, intent, now, providerId);
    if (!followed.ok) return followed;
    return ok({ reservation: next, events: followed.value });
  }
  return ok({ reservation: next, events: [] });
}

async function openSeatedOrder(
  deps: Deps,
  tx: Transaction,
  next: Reservation,
  now: Instant,
  providerId: string,
) {
  const location = await deps.queries.access.findLocation(next.locationId);
  if (!location) throw new Error(`location ${next.locationId} vanished during a reservation write`);
  const free = await claimTables(tx, next.locationId, next.tableIds, null, providerReader(providerId));
  if (!free.ok) return free;
  // Only here, where the reservation's one order opens: moves, reseats and retries never reach it.
  const deposit = depositOf(next.prepayment, location.currency);
  const change = openOrder({
    id: deps.ids.uuid(),
    locationId: next.locationId,
    tableIds: next.tableIds,
    covers: next.covers,
    currency: location.currency,
    reservationExternalId: next.externalId,
    reservationProviderId: providerId,
    now,
    deposit: deposit === null ? null : { id: deps.ids.uuid(), amountMinor: deposit },
  });
  await tx.orders.insert(change.order);
  return ok(change);
}

/** Moves the linked order and updates its covers while it is open; a closed order stays as it is. */
async function followSeating(
  tx: Transaction,
  locationId: string,
  intent: Extract<OrderIntent, { kind: 'follow' }>,
  now: Instant,
  providerId: string,
): Promise<Outcome<DomainEvent[]>> {
  const order: Order | null = await tx.orders.lockById(locationId, intent.orderId);
  if (order === null || order.status !== 'open') return ok([]);
  if (!sameIdSet(order.tableIds, intent.tableIds)) {
    const free = await claimTables(tx, locationId, intent.tableIds, order, providerReader(providerId));
    if (!free.ok) return free;
  }
  const reseated = reseatOrder(order, intent.tableIds, intent.covers, now);
  if (!reseated.ok) return reseated;
  await tx.orders.update(reseated.value.order);
  return ok(reseated.value.events);
}
