import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The deliveries a job queue has not been given yet (`EnqueueCandidates.unqueued`): the
 * worker's enqueuer looks for them every round. The relay marks the deliveries it hands to
 * the queue as it inserts them, so this index holds only the few made otherwise (a
 * redelivery, a recover, a hand-off the queue refused) and a round reads nothing more,
 * however many deliveries are pending.
 */
export class UnqueuedDeliveries1764700000000 implements MigrationInterface {
  name = 'UnqueuedDeliveries1764700000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE INDEX webhook_deliveries_unqueued ON webhook_deliveries (next_attempt_at)
        WHERE status = 'pending' AND queued_generation IS DISTINCT FROM generation`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX webhook_deliveries_unqueued`);
  }
}
