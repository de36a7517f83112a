import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The event feed and retention (docs/decisions/0090-event-feed-and-retention.md):
 * - `locations.events_pruned_through`: the last sequence retention pruned (0: none), and the
 *   instant of that event, so the feed and recover tell a pruned position from a new one;
 * - `outbox_events_age`: the prune takes the oldest events first;
 * - `webhook_deliveries.recovered_by`: the recover request a delivery was made by (null for
 *   the relay's), so an event may be delivered to an endpoint again as a new record; the
 *   relay's own fan-out stays one delivery per event and endpoint;
 * - `webhook_deliveries_event`: the prune finds an event's deliveries.
 */
export class EventFeed1764510000000 implements MigrationInterface {
  name = 'EventFeed1764510000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE locations ADD COLUMN events_pruned_through bigint NOT NULL DEFAULT 0,
                             ADD COLUMN events_pruned_through_at timestamptz`,
    );
    await q.query(`CREATE INDEX outbox_events_age ON outbox_events (created_at)`);
    await q.query(`ALTER TABLE webhook_deliveries ADD COLUMN recovered_by uuid`);
    await q.query(`ALTER TABLE webhook_deliveries DROP CONSTRAINT webhook_deliveries_event_endpoint`);
    await q.query(
      `CREATE UNIQUE INDEX webhook_deliveries_event_endpoint ON webhook_deliveries (event_id, endpoint_id)
        WHERE recovered_by IS NULL`,
    );
    await q.query(`CREATE INDEX webhook_deliveries_event ON webhook_deliveries (event_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DELETE FROM webhook_deliveries WHERE recovered_by IS NOT NULL`);
    await q.query(`DROP INDEX webhook_deliveries_event`);
    await q.query(`DROP INDEX webhook_deliveries_event_endpoint`);
    await q.query(
      `ALTER TABLE webhook_deliveries ADD CONSTRAINT webhook_deliveries_event_endpoint UNIQUE (event_id, endpoint_id)`,
    );
    await q.query(`ALTER TABLE webhook_deliveries DROP COLUMN recovered_by`);
    await q.query(`DROP INDEX outbox_events_age`);
    await q.query(
      `ALTER TABLE locations DROP COLUMN events_pruned_through, DROP COLUMN events_pruned_through_at`,
    );
  }
}
