import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Idempotency keys (docs/decisions/0200-idempotency-keys.md): one row per key, credential and
 * location, claimed by the first request and holding its answer (encrypted) for 24 hours;
 * `idempotency_keys_expiry` lets retention take the expired ones oldest first.
 */
export class IdempotencyKeys1764900000000 implements MigrationInterface {
  name = 'IdempotencyKeys1764900000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE TABLE idempotency_keys (
         scope text NOT NULL,
         key text NOT NULL,
         fingerprint text NOT NULL,
         claim text NOT NULL,
         created_at timestamptz NOT NULL,
         expires_at timestamptz NOT NULL,
         locked_until timestamptz NOT NULL,
         response_status smallint,
         response_body text,
         PRIMARY KEY (scope, key)
       )`,
    );
    await q.query(`CREATE INDEX idempotency_keys_expiry ON idempotency_keys (expires_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE idempotency_keys`);
  }
}
