import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Sandbox locations (test keys, the till simulator): a flag fixed at creation, false for every existing one. */
export class SandboxLocations1764300000001 implements MigrationInterface {
  name = 'SandboxLocations1764300000001';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE locations ADD COLUMN sandbox boolean NOT NULL DEFAULT false`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE locations DROP COLUMN sandbox`);
  }
}
