import type { Order, OrderStatus, TableHolder } from './order';

/** Used inside a unit of work; every method is scoped to one location. */
export interface OrderRepository {
  /**
   * Locks the given tables of the location in a fixed order (by id) for the rest of the
   * transaction, so two commands touching overlapping tables serialise and never
   * deadlock, and returns the open order standing on each locked table that has one.
   */
  lockTables(locationId: string, tableIds: string[]): Promise<TableHolder[]>;
  /** Reads and locks one order. */
  lockById(locationId: string, orderId: string): Promise<Order | null>;
  /** Stores a new order; while it is open its tables are taken by it. */
  insert(order: Order): Promise<void>;
  /** Stores the order as it now stands: its tables follow a move and are freed when it is no longer open. */
  update(order: Order): Promise<void>;
}

export interface OrderQueries {
  findById(locationId: string, orderId: string): Promise<Order | null>;
  /** Newest first (by openedAt, then id); every status when `status` is null. */
  list(locationId: string, status: OrderStatus | null): Promise<Order[]>;
}
