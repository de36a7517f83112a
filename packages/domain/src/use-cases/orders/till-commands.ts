import type { Tender } from '../../orders/check';
import type { Order } from '../../orders/order';
import type { ServiceStatus } from '../../orders/service-status';
import { addDiscount, addPayment, setServiceStatus, voidItem } from '../../orders/till';
import type { UseCase } from '../use-case.types';
import { changeOrder } from './change-order';

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
