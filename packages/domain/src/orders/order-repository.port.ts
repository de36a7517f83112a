import type { Order, OrderStatus } from './order';

/** Used inside a unit of work; every method is scoped to one location. */
export interface OrderRepository {
  /**
   * Locks the given tables in a fixed order (by id) for the rest of the transaction, so
   * two commands touching overlapping tables serialise and never deadlock.
   */
  lockTables(locationId: string, tableIds: string[]): Promise<void>;
  /** Open orders standing on any of the tables. */
  findOpenOnTables(locationId: string, tableIds: string[]): Promise<Order[]>;
  /** Reads and locks one order. */
  lockById(locationId: string, orderId: string): Promise<Order | null>;
  insert(order: Order): Promise<void>;
  update(order: Order): Promise<void>;
}

export interface OrderQueries {
  findById(locationId: string, orderId: string): Promise<Order | null>;
  /** Newest first (by openedAt, then id). */
  list(locationId: string, status: OrderStatus | null): Promise<Order[]>;
}
