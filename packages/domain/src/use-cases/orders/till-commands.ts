import type { Reader } from '../../access/visibility';
import type { DomainEvent } from '../../events/domain-event';
import { checkTableIds } from '../../floorplan/table-check';
import { changeCovers, finishOrder, moveOrder, type Order, type OrderChange } from '../../orders/order';
import { addDiscount, addItem, addPayment, setServiceStatus, voidItem } from '../../orders/till';
import { fail, ok, type Outcome } from '../../kernel/outcome';
import type { Transaction } from '../../system/unit-of-work.port';
import { requireLocation } from '../access/require-location';
import type { Deps } from '../deps';
import type { Course, Tender } from '../../orders/check';
import type { ServiceStatus } from '../../orders/service-status';
import type { UseCase } from '../use-case.types';
import { claimTables } from './claim-tables';
import { checkOrderTables } from './order-tables';

/** `taxRateBps` defaults to 0 and `course` to `other`. */
export type AddOrderItem = UseCase<
  {
    locationId: string;
    orderId: string;
    label: string;
    amountMinor: number;
    quantity: number;
    taxRateBps?: number;
    course?: Course;
  },
  Order
>;
export type ChangeOrderCovers = UseCase<{ locationId: string; orderId: string; covers: number }, Order>;
/** `closed`: paid and done; `voided`: cancelled on the till. Both free the tables. */
export type FinishOrderAs = UseCase<{ locationId: string; orderId: string; how: 'closed' | 'voided' }, Order>;
/** `reader`: who asks (default the venue); a 409 names only what it may see of the holder. */
export type MoveOrderToTables = UseCase<
  { locationId: string; orderId: string; tableIds: string[]; reader?: Reader },
  Order
>;

/** Voids one item of an open order; it stays on the check, excluded from the totals. */
export type VoidOrderItem = UseCase<{ locationId: string; orderId: string; itemId: string }, Order>;
export type AddOrderDiscount = UseCase<
  { locationId: string; orderId: string; label: string; amountMinor: number },
  Order
>;
/** `tipMinor` comes on top of `amountMinor` and never counts towards the balance. */
export type AddOrderPayment = UseCase<
  { locationId: string; orderId: string; amountMinor: number; tipMinor: number; tender: Tender },
  Order
>;
export type SetOrderServiceStatus = UseCase<
  { locationId: string; orderId: string; status: ServiceStatus },
  Order
>;

/**
 * The skeleton of every till command on an existing order: lock it, decide, store it,
 * append its events, all in one transaction.
 */
export async function changeOrder(
  deps: Deps,
  locationId: string,
  orderId: string,
  decide: (tx: Transaction, order: Order) => Promise<Outcome<OrderChange>>,
): Promise<Outcome<Order>> {
  const location = await requireLocation(deps, locationId);
  if (!location.ok) return location;
  return deps.uow.run(async (tx) => {
    const order = await tx.orders.lockById(locationId, orderId);
    if (order === null) return fail('not_found', `the location has no order ${orderId}`);
    const change = await decide(tx, order);
    if (!change.ok) return change;
    // A write that changes nothing (voiding a voided item, the same status again) stores nothing.
    if (change.value.order !== order) await tx.orders.update(change.value.order);
    await appendEvents(tx, locationId, change.value.events);
    return ok(change.value.order);
  });
}

async function appendEvents(tx: Transaction, locationId: string, events: DomainEvent[]) {
  if (events.length > 0) await tx.outbox.append(locationId, events);
}

export const addOrderItem: AddOrderItem = async (
  deps,
  { locationId, orderId, label, amountMinor, quantity, taxRateBps = 0, course = 'other' },
) =>
  changeOrder(deps, locationId, orderId, async (_tx, order) =>
    addItem(
      order,
      { id: deps.ids.uuid(), label, amountMinor, quantity, taxRateBps, course },
      deps.clock.now(),
    ),
  );

export const changeOrderCovers: ChangeOrderCovers = async (deps, { locationId, orderId, covers }) =>
  changeOrder(deps, locationId, orderId, async (_tx, order) => changeCovers(order, covers, deps.clock.now()));

/** Closing or voiding locks the order's tables (in id order) before freeing them. */
export const finishOrderAs: FinishOrderAs = async (deps, { locationId, orderId, how }) =>
  changeOrder(deps, locationId, orderId, async (tx, order) => {
    if (order.status === 'open') await tx.orders.lockTables(locationId, order.tableIds);
    return finishOrder(order, how, deps.clock.now());
  });

/** The till moves an order onto free tables of the published plan (its own count as free). */
export const moveOrderToTables: MoveOrderToTables = async (
  deps,
  { locationId, orderId, tableIds, reader },
) => {
  const body = checkOrderTables(tableIds);
  if (!body.ok) return body;
  return changeOrder(deps, locationId, orderId, async (tx, order) => {
    if (order.status !== 'open') return moveOrder(order, tableIds, deps.clock.now());
    const tables = checkTableIds(await tx.floorPlans.publishedTables(locationId, tableIds), tableIds);
    if (!tables.ok) return tables;
    const free = await claimTables(tx, locationId, tableIds, order, reader);
    if (!free.ok) return free;
    return moveOrder(order, tableIds, deps.clock.now());
  });
};

export const voidOrderItem: VoidOrderItem = async (deps, { locationId, orderId, itemId }) =>
  changeOrder(deps, locationId, orderId, async (_tx, order) => voidItem(order, itemId, deps.clock.now()));

export const addOrderDiscount: AddOrderDiscount = async (deps, { locationId, orderId, label, amountMinor }) =>
  changeOrder(deps, locationId, orderId, async (_tx, order) =>
    addDiscount(order, { id: deps.ids.uuid(), label, amountMinor }, deps.clock.now()),
  );

export const addOrderPayment: AddOrderPayment = async (
  deps,
  { locationId, orderId, amountMinor, tipMinor, tender },
) =>
  changeOrder(deps, locationId, orderId, async (_tx, order) =>
    addPayment(order, { id: deps.ids.uuid(), amountMinor, tipMinor, tender }, deps.clock.now()),
  );

export const setOrderServiceStatus: SetOrderServiceStatus = async (deps, { locationId, orderId, status }) =>
  changeOrder(deps, locationId, orderId, async (_tx, order) =>
    setServiceStatus(order, status, deps.clock.now()),
  );
