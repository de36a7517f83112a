import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Several webhook endpoints per location (docs/decisions/0214-several-webhook-endpoints.md):
 * each endpoint belongs to a provider (`provider_id`; an existing one to its location's own
 * provider, whose id is the location's) and may carry a description. `singleton` marks the one
 * `PUT /webhook-endpoint` manages (at most one per location); the others are created with
 * `POST /webhook-endpoints`. `webhook_endpoints_location` serves the relay's fan-out and
 * `webhook_endpoints_owner` the per-provider count and list.
 */
export class SeveralWebhookEndpoints1765000000000 implements MigrationInterface {
  name = 'SeveralWebhookEndpoints1765000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE webhook_endpoints ADD COLUMN provider_id uuid,
                                                 ADD COLUMN description text,
                                                 ADD COLUMN singleton boolean NOT NULL DEFAULT false`);
    await q.query(`UPDATE webhook_endpoints SET provider_id = location_id, singleton = true`);
    await q.query(`ALTER TABLE webhook_endpoints ALTER COLUMN provider_id SET NOT NULL`);
    await q.query(`ALTER TABLE webhook_endpoints ALTER COLUMN singleton DROP DEFAULT`);
    await q.query(`ALTER TABLE webhook_endpoints DROP CONSTRAINT webhook_endpoints_location_id_key`);
    await q.query(
      `CREATE UNIQUE INDEX webhook_endpoints_singleton ON webhook_endpoints (location_id) WHERE singleton`,
    );
    await q.query(`CREATE INDEX webhook_endpoints_location ON webhook_endpoints (location_id)`);
    await q.query(
      `CREATE INDEX webhook_endpoints_owner ON webhook_endpoints (provider_id, location_id, created_at, id)`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DELETE FROM webhook_endpoints WHERE NOT singleton`);
    await q.query(`DROP INDEX webhook_endpoints_owner`);
    await q.query(`DROP INDEX webhook_endpoints_location`);
    await q.query(`DROP INDEX webhook_endpoints_singleton`);
    await q.query(
      `ALTER TABLE webhook_endpoints ADD CONSTRAINT webhook_endpoints_location_id_key UNIQUE (location_id)`,
    );
    await q.query(`ALTER TABLE webhook_endpoints DROP COLUMN singleton, DROP COLUMN description,
                                                 DROP COLUMN provider_id`);
  }
}
