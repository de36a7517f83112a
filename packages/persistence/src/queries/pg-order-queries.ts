import type { Order, OrderQueries, OrderStatus } from '@pis/domain';
import { orderMapper } from '../mappers/order.mapper';
import type { OrderRow } from '../schemas/order.schema';
import type { Database } from '../db/database';
import { isUuid } from '../adapters/uuid';

export class PgOrderQueries implements OrderQueries {
  constructor(private readonly db: Database) {}

  async findById(locationId: string, orderId: string): Promise<Order | null> {
    if (!isUuid(locationId) || !isUuid(orderId)) return null;
    const row = await this.db.read((sql) =>
      sql.first<OrderRow>(`SELECT * FROM orders WHERE id = $1 AND location_id = $2`, [orderId, locationId]),
    );
    return row === null ? null : orderMapper.toDomain(row);
  }

  /** Newest first on `orders_location_newest (location_id, opened_at DESC, id DESC)`. */
  async list(locationId: string, status: OrderStatus | null): Promise<Order[]> {
    if (!isUuid(locationId)) return [];
    const rows = await this.db.read(
      (sql) =>
        status === null
          ? sql.rows<OrderRow>(
              `SELECT * FROM orders WHERE location_id = $1 ORDER BY opened_at DESC, id DESC`,
              [locationId],
            )
          : sql.rows<OrderRow>(
              `SELECT * FROM orders WHERE location_id = $1 AND status = $2 ORDER BY opened_at DESC, id DESC`,
              [locationId, status],
            ),
      { location: locationId },
    );
    return rows.map(orderMapper.toDomain);
  }
}
