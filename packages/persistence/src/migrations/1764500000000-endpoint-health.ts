import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Delivery health: when the endpoint's current run of failed attempts began (null after a
 * success), and why it was disabled. Existing disabled endpoints were disabled by a 410.
 */
export class EndpointHealth1764500000000 implements MigrationInterface {
  name = 'EndpointHealth1764500000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE webhook_endpoints ADD COLUMN failing_since timestamptz, ADD COLUMN disabled_reason text`,
    );
    await q.query(
      `UPDATE webhook_endpoints SET disabled_reason = 'the receiver answered 410 Gone' WHERE disabled_at IS NOT NULL`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE webhook_endpoints DROP COLUMN failing_since, DROP COLUMN disabled_reason`);
  }
}
