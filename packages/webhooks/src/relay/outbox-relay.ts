import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { transaction } from '../sql/sql';

export interface RelayBatch {
  /** Outbox events marked relayed by this batch. */
  events: number;
  /** Deliveries created for them (events of locations without a wanting endpoint get none). */
  deliveries: number;
}

/**
 * Fans committed outbox events out to deliveries, at least once. A batch claims unrelayed
 * events with `FOR UPDATE SKIP LOCKED` (so several relays share the work without waiting on
 * each other), creates one delivery per event for its location's endpoint when that exists,
 * is enabled and subscribes to the type, and marks the events relayed, all in one
 * transaction: a relay that dies mid-batch leaves the events unrelayed for the next one,
 * and `ON CONFLICT DO NOTHING` keeps a repeated fan-out harmless.
 */
export class OutboxRelay {
  constructor(
    private readonly db: DataSource,
    private readonly batchSize = 500,
    private readonly newId: () => string = randomUUID,
  ) {}

  get size(): number {
    return this.batchSize;
  }

  async relayBatch(): Promise<RelayBatch> {
    return transaction(this.db, async (sql) => {
      const claimed = await sql.rows<{ id: string }>(
        `SELECT id FROM outbox_events WHERE relayed_at IS NULL
          ORDER BY created_at, id LIMIT $1 FOR UPDATE SKIP LOCKED`,
        [this.batchSize],
      );
      if (claimed.length === 0) return { events: 0, deliveries: 0 };
      const eventIds = claimed.map((e) => e.id);
      const created = await sql.rows<{ id: string }>(
        `INSERT INTO webhook_deliveries (id, location_id, endpoint_id, event_id, event_type, sequence,
                                         status, attempt_count, next_attempt_at, generation, created_at, updated_at)
         SELECT c.delivery_id, e.location_id, ep.id, e.id, e.type, e.sequence,
                'pending', 0, clock_timestamp(), 0, clock_timestamp(), clock_timestamp()
           FROM unnest($1::uuid[], $2::uuid[]) AS c(event_id, delivery_id)
           JOIN outbox_events e ON e.id = c.event_id
           JOIN webhook_endpoints ep ON ep.location_id = e.location_id
                                    AND ep.disabled_at IS NULL AND e.type = ANY(ep.events)
         ON CONFLICT (event_id, endpoint_id) DO NOTHING
         RETURNING id`,
        [eventIds, eventIds.map(() => this.newId())],
      );
      await sql.rows(`UPDATE outbox_events SET relayed_at = clock_timestamp() WHERE id = ANY($1::uuid[])`, [
        eventIds,
      ]);
      return { events: claimed.length, deliveries: created.length };
    });
  }
}
