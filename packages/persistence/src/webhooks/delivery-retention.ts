import type { Sql } from '../db/sql';

/**
 * Deletes the deliveries of these outbox events with their attempts (retention, inside the
 * prune's transaction, before the events themselves go).
 */
export async function deleteDeliveriesOf(sql: Sql, eventIds: readonly string[]): Promise<void> {
  await sql.rows(
    `DELETE FROM webhook_attempts WHERE delivery_id IN (
       SELECT id FROM webhook_deliveries WHERE event_id = ANY($1::uuid[]))`,
    [eventIds],
  );
  await sql.rows(`DELETE FROM webhook_deliveries WHERE event_id = ANY($1::uuid[])`, [eventIds]);
}
