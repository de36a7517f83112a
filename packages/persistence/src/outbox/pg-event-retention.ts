import type { Instant } from '@pis/domain';
import type { EventRetention } from '@pis/ports';
import { markEventsPruned, type PrunedEvent } from '../access/location-event-marks';
import type { Database } from '../db/database';
import { instantToDb } from '../db-instant';
import { deleteDeliveriesOf } from '../webhooks/delivery-retention';

/** The advisory lock key of the prune ("pis-prune" as an int4-ish number). */
const PRUNE_LOCK = 0x70697370;

/** Retention's prune: a batch per transaction, the oldest events first. */
export class PgEventRetention implements EventRetention {
  constructor(private readonly db: Database) {}

  /**
   * Takes the oldest `batchSize` events older than `olderThan` (skipping rows another prune
   * holds), deletes their attempts, deliveries and themselves, and moves each location's
   * mark to the newest sequence it lost. Events of one location joined the outbox in
   * sequence order, so taking by age takes a location's events by sequence.
   */
  async prune(olderThan: Instant, batchSize: number): Promise<number> {
    return this.db.transaction(async (sql) => {
      // One prune at a time across processes: two would move the marks of the same locations
      // in different orders and could deadlock. The other answers 0 and tries next round.
      const [lock] = await sql.rows<{ held: boolean }>(`SELECT pg_try_advisory_xact_lock($1) AS held`, [
        PRUNE_LOCK,
      ]);
      if (lock?.held !== true) return 0;
      const doomed = await sql.rows<{ id: string }>(
        `SELECT id FROM outbox_events WHERE created_at < $1::timestamptz
          ORDER BY created_at, sequence LIMIT $2 FOR UPDATE SKIP LOCKED`,
        [instantToDb(olderThan), batchSize],
      );
      if (doomed.length === 0) return 0;
      const ids = doomed.map((d) => d.id);
      await deleteDeliveriesOf(sql, ids);
      const gone = await sql.rows<PrunedEvent>(
        `DELETE FROM outbox_events WHERE id = ANY($1::uuid[]) RETURNING location_id, sequence, occurred_at`,
        [ids],
      );
      await markEventsPruned(sql, gone);
      return doomed.length;
    });
  }
}
