import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Provider-scope webhook endpoints and connection events
 * (docs/decisions/0215-provider-scope-endpoints-and-connection-events.md):
 * - `webhook_endpoints.location_id` null: an endpoint of the provider as a whole, receiving the
 *   events of every location it is connected to; `webhook_endpoints_provider_scope` serves the
 *   relay's fan-out (per connection of the event's location), the count and the list.
 * - `outbox_events.provider_id` with a null `sequence`: a `connection.granted` or
 *   `connection.revoked` for that provider, written with the grant or revoke; no location
 *   event has a provider_id, no connection event a sequence (`outbox_events_kind`).
 *   `outbox_events_connection` serves recover.
 * - `webhook_deliveries.sequence` null for a connection event's deliveries;
 *   `webhook_deliveries_endpoint_newest` serves a provider-scope endpoint's delivery log, which
 *   spans locations.
 * Existing rows keep every value: every existing endpoint has a location, every event a sequence.
 */
export class ProviderScopeEndpoints1765200000000 implements MigrationInterface {
  name = 'ProviderScopeEndpoints1765200000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE webhook_endpoints ALTER COLUMN location_id DROP NOT NULL`);
    await q.query(`CREATE INDEX webhook_endpoints_provider_scope ON webhook_endpoints (provider_id, created_at, id)
                     WHERE location_id IS NULL`);
    await q.query(
      `ALTER TABLE outbox_events ALTER COLUMN sequence DROP NOT NULL, ADD COLUMN provider_id uuid`,
    );
    await q.query(`ALTER TABLE outbox_events ADD CONSTRAINT outbox_events_kind
                     CHECK ((sequence IS NULL) = (provider_id IS NOT NULL)) NOT VALID`);
    await q.query(`ALTER TABLE outbox_events VALIDATE CONSTRAINT outbox_events_kind`);
    await q.query(`CREATE INDEX outbox_events_connection ON outbox_events (provider_id, occurred_at)
                     WHERE provider_id IS NOT NULL`);
    await q.query(`ALTER TABLE webhook_deliveries ALTER COLUMN sequence DROP NOT NULL`);
    await q.query(`CREATE INDEX webhook_deliveries_endpoint_newest
                     ON webhook_deliveries (endpoint_id, created_at DESC, id DESC)`);
  }

  async down(q: QueryRunner): Promise<void> {
    // What the previous schema cannot hold goes: provider-scope endpoints, connection events,
    // and their deliveries with their attempts.
    await q.query(`DELETE FROM webhook_attempts WHERE delivery_id IN (
                     SELECT id FROM webhook_deliveries WHERE sequence IS NULL
                         OR endpoint_id IN (SELECT id FROM webhook_endpoints WHERE location_id IS NULL))`);
    await q.query(`DELETE FROM webhook_deliveries WHERE sequence IS NULL
                     OR endpoint_id IN (SELECT id FROM webhook_endpoints WHERE location_id IS NULL)`);
    await q.query(`DELETE FROM outbox_events WHERE sequence IS NULL`);
    await q.query(`DELETE FROM webhook_endpoints WHERE location_id IS NULL`);
    await q.query(`DROP INDEX webhook_deliveries_endpoint_newest`);
    await q.query(`ALTER TABLE webhook_deliveries ALTER COLUMN sequence SET NOT NULL`);
    await q.query(`DROP INDEX outbox_events_connection`);
    await q.query(`ALTER TABLE outbox_events DROP CONSTRAINT outbox_events_kind`);
    await q.query(`ALTER TABLE outbox_events DROP COLUMN provider_id, ALTER COLUMN sequence SET NOT NULL`);
    await q.query(`DROP INDEX webhook_endpoints_provider_scope`);
    await q.query(`ALTER TABLE webhook_endpoints ALTER COLUMN location_id SET NOT NULL`);
  }
}
