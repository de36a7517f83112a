import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Room on each page for the rewritten rows of the tables updated on the hot paths
 * (decision 0140): a reservation is rewritten by every applied PUT, a delivery by its claim
 * and its attempt record. An update whose indexed columns stay as they were can then be a
 * HOT update (the new row version on the same page, no new index entries) instead of one
 * entry in every index. Pages written before this keep their fill; new and rewritten pages
 * follow it.
 */
export class RoomForHotUpdates1764600000000 implements MigrationInterface {
  name = 'RoomForHotUpdates1764600000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE reservations SET (fillfactor = 80)`);
    await q.query(`ALTER TABLE webhook_deliveries SET (fillfactor = 80)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE reservations RESET (fillfactor)`);
    await q.query(`ALTER TABLE webhook_deliveries RESET (fillfactor)`);
  }
}
