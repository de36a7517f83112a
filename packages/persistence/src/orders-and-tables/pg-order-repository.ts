import type { Order, OrderRepository, TableHolder } from '@pis/domain';
import { orderMapper } from '../mappers/order.mapper';
import { orderSchema, type OrderRow } from '../schemas/order.schema';
import type { Sql } from '../db/sql';
import { isUuid, uuidsOnly } from '../adapters/uuid';

export class PgOrderRepository implements OrderRepository {
  constructor(private readonly sql: Sql) {}

  /**
   * Locks the tables in id order (the sort sits below the row locks in the plan, so rows are
   * locked in that order). The holders' reservation ids are read by a second statement: after
   * waiting for a lock, READ COMMITTED re-reads only the locked row, so a join in the locking
   * statement could miss an order that committed while it waited.
   */
  async lockTables(locationId: string, tableIds: string[]): Promise<TableHolder[]> {
    const ids = uuidsOnly(tableIds);
    if (!isUuid(locationId) || ids.length === 0) return [];
    const locked = await this.sql.rows<{ id: string; open_order_id: string | null }>(
      `SELECT id, open_order_id FROM dining_tables
       WHERE location_id = $1 AND id = ANY($2::uuid[]) ORDER BY id FOR UPDATE`,
      [locationId, ids],
    );
    const held = locked.filter((t): t is { id: string; open_order_id: string } => t.open_order_id !== null);
    if (held.length === 0) return [];
    const orders = await this.sql.rows<{
      id: string;
      reservation_external_id: string | null;
      reservation_provider_id: string | null;
    }>(
      `SELECT id, reservation_external_id, reservation_provider_id FROM orders
        WHERE location_id = $1 AND id = ANY($2::uuid[])`,
      [locationId, [...new Set(held.map((t) => t.open_order_id))]],
    );
    const reservationOf = new Map(orders.map((o) => [o.id, o]));
    return held.map((t) => {
      const order = reservationOf.get(t.open_order_id);
      const owner = order?.reservation_provider_id ?? null;
      return {
        tableId: t.id,
        orderId: t.open_order_id,
        reservationExternalId: order?.reservation_external_id ?? null,
        ...(owner === null ? {} : { reservationProviderId: owner }),
      };
    });
  }

  async lockById(locationId: string, orderId: string): Promise<Order | null> {
    if (!isUuid(locationId) || !isUuid(orderId)) return null;
    const row = await this.sql.first<OrderRow>(
      `SELECT * FROM orders WHERE id = $1 AND location_id = $2 FOR UPDATE`,
      [orderId, locationId],
    );
    return row === null ? null : orderMapper.toDomain(row);
  }

  async insert(order: Order): Promise<void> {
    await this.sql.insert(orderSchema, [orderMapper.toPersistence(order)]);
    await this.holdTables(order);
  }

  async update(order: Order): Promise<void> {
    const { id, location_id, ...fields } = orderMapper.toPersistence(order);
    const changed = await this.sql.update(orderSchema, { id, location_id }, fields);
    if (changed === 0) throw new Error(`order ${id} of location ${location_id} is not stored`);
    await this.holdTables(order);
  }

  /**
   * Keeps `dining_tables.open_order_id` in step with the order: an open order holds exactly
   * its tables, a closed or voided one none. One statement frees the tables it left, takes the
   * free ones it stands on, and answers the target tables it could not take (held by another
   * order, or not a table of the location): a broken invariant, since callers lock and check
   * the tables first.
   */
  private async holdTables(order: Order): Promise<void> {
    const targets = order.status === 'open' ? [...new Set(order.tableIds)] : [];
    const refused = await this.sql.rows<{ id: string; open_order_id: string | null }>(
      `WITH freed AS (
         UPDATE dining_tables SET open_order_id = NULL
         WHERE location_id = $2 AND open_order_id = $1 AND NOT (id = ANY($3::uuid[]))
       ), taken AS (
         UPDATE dining_tables SET open_order_id = $1
         WHERE location_id = $2 AND id = ANY($3::uuid[]) AND open_order_id IS NULL
         RETURNING id
       )
       SELECT target.id, t.open_order_id
       FROM unnest($3::uuid[]) AS target(id)
       LEFT JOIN dining_tables t ON t.id = target.id AND t.location_id = $2
       WHERE target.id NOT IN (SELECT id FROM taken) AND t.open_order_id IS DISTINCT FROM $1`,
      [order.id, order.locationId, targets],
    );
    if (refused.length > 0) {
      const names = refused.map((t) => `${t.id} (${t.open_order_id ?? 'no such table'})`).join(', ');
      throw new Error(`order ${order.id} cannot hold tables ${names}`);
    }
  }
}
