import {
  lockOrder,
  ownerOf,
  type Order,
  type OrderQueries,
  type OrderRepository,
  type OrderStatus,
  type TableHolder,
} from '../../src';
import { detach } from './detach';
import { compareIds, scoped, type Draft, type Reader } from './state';

/**
 * Occupancy is a map from table to the one open order standing on it, so two open orders
 * on one table cannot be stored: taking a table another open order holds throws (the use
 * case must have refused with `table_occupied` before).
 */
export class InMemoryOrderRepository implements OrderRepository {
  constructor(private readonly draft: Draft) {}

  async lockTables(locationId: string, tableIds: string[]): Promise<TableHolder[]> {
    return lockOrder(tableIds).flatMap((tableId) => {
      const orderId = this.draft.get('tableHolders', scoped(locationId, tableId));
      const order = orderId === undefined ? undefined : this.draft.get('orders', orderId);
      return order
        ? [
            {
              tableId,
              orderId: order.id,
              reservationExternalId: order.reservationExternalId,
              ...ownerOf(order),
            },
          ]
        : [];
    });
  }

  async lockById(locationId: string, orderId: string): Promise<Order | null> {
    return findOrder(this.draft, locationId, orderId);
  }

  async insert(order: Order): Promise<void> {
    if (this.draft.get('orders', order.id)) throw new Error(`order ${order.id} is already stored`);
    this.draft.put('orders', order.id, detach(order));
    this.take(order);
  }

  async update(order: Order): Promise<void> {
    const stored = this.draft.get('orders', order.id);
    if (!stored || stored.locationId !== order.locationId) {
      throw new Error(`order ${order.id} is not stored in location ${order.locationId}`);
    }
    this.release(stored);
    this.draft.put('orders', order.id, detach(order));
    this.take(order);
  }

  private take(order: Order): void {
    if (order.status !== 'open') return;
    for (const tableId of order.tableIds) {
      const key = scoped(order.locationId, tableId);
      const holder = this.draft.get('tableHolders', key);
      if (holder !== undefined && holder !== order.id) {
        throw new Error(`table ${tableId} is held by open order ${holder}; order ${order.id} cannot take it`);
      }
      this.draft.put('tableHolders', key, order.id);
    }
  }

  private release(order: Order): void {
    for (const tableId of order.tableIds) {
      const key = scoped(order.locationId, tableId);
      if (this.draft.get('tableHolders', key) === order.id) this.draft.remove('tableHolders', key);
    }
  }
}

export class InMemoryOrderQueries implements OrderQueries {
  constructor(private readonly read: () => Reader) {}

  async findById(locationId: string, orderId: string): Promise<Order | null> {
    return findOrder(this.read(), locationId, orderId);
  }

  async list(locationId: string, status: OrderStatus | null): Promise<Order[]> {
    return [...this.read().map('orders').values()]
      .filter((o) => o.locationId === locationId && (status === null || o.status === status))
      .sort((a, b) => b.openedAt.compare(a.openedAt) || compareIds(b.id, a.id))
      .map(detach);
  }
}

function findOrder(reader: Reader, locationId: string, orderId: string): Order | null {
  const order = reader.map('orders').get(orderId);
  return order && order.locationId === locationId ? detach(order) : null;
}
