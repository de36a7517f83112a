import type { TableStateQueries, TableStateRead } from '@pis/domain';
import { readLatestPublished } from '../orders-and-tables/floor-plan-reads';
import { isUuid } from '../adapters/uuid';
import type { Database } from '../db/database';
import { orderMapper } from '../mappers/order.mapper';
import type { OrderRow } from '../schemas/order.schema';

/** The table-state snapshot, outside any transaction. */
export class PgTableStateQueries implements TableStateQueries {
  constructor(private readonly db: Database) {}

  /** The sequence, the published plan and the open orders from one REPEATABLE READ snapshot. */
  async read(locationId: string): Promise<TableStateRead> {
    if (!isUuid(locationId)) return { asOfSequence: 0, plan: null, openOrders: [] };
    return this.db.snapshot(
      async (sql) => {
        const location = await sql.first<{ event_sequence: number }>(
          `SELECT event_sequence FROM locations WHERE id = $1`,
          [locationId],
        );
        const plan = await readLatestPublished(sql, locationId);
        const orders = await sql.rows<OrderRow>(
          `SELECT * FROM orders WHERE id IN (
           SELECT open_order_id FROM dining_tables WHERE location_id = $1 AND open_order_id IS NOT NULL)
         ORDER BY opened_at, id`,
          [locationId],
        );
        return {
          asOfSequence: Number(location?.event_sequence ?? 0),
          plan,
          openOrders: orders.map(orderMapper.toDomain),
        };
      },
      { location: locationId },
    );
  }
}
