import type { EventRecoveryRepository, RecoverFrom, WebhookEndpoint } from '@pis/domain';
import type { Sql } from '../db/sql';
import { instantFromDb, instantToDb } from '../db-instant';

/** Recover, inside a unit of work (the endpoint row is locked by the caller). */
export class PgEventRecovery implements EventRecoveryRepository {
  constructor(private readonly sql: Sql) {}

  /**
   * One INSERT ... SELECT over the location's retained events. Each new delivery is due one
   * microsecond after the one before it, so the queue takes them in sequence order; only the
   * events committed while the endpoint's provider was connected (its connection's covered
   * sequences) are queued.
   */
  async requeue(endpoint: WebhookEndpoint, from: RecoverFrom): Promise<{ queued: number } | 'expired'> {
    const mark = await this.sql.first<{ pruned: number; pruned_at: string | null }>(
      `SELECT events_pruned_through AS pruned, events_pruned_through_at AS pruned_at FROM locations WHERE id = $1`,
      [endpoint.locationId],
    );
    const pruned = Number(mark?.pruned ?? 0);
    const prunedAt = mark?.pruned_at == null ? null : instantFromDb(mark.pruned_at);
    const bySequence = 'afterSequence' in from;
    const expired = bySequence
      ? from.afterSequence < pruned
      : prunedAt !== null && prunedAt.isAfter(from.since);
    if (expired) return 'expired';
    const inserted = await this.sql.rows<{ id: string }>(
      `INSERT INTO webhook_deliveries (id, location_id, endpoint_id, event_id, event_type, sequence, status,
                                       attempt_count, next_attempt_at, generation, created_at, updated_at,
                                       recovered_by)
       SELECT gen_random_uuid(), e.location_id, $2, e.id, e.type, e.sequence, 'pending',
              0, t.now + make_interval(secs => (row_number() OVER (ORDER BY e.sequence)) / 1000000.0),
              0, t.now, t.now, $3
         FROM outbox_events e, (SELECT clock_timestamp() AS now) t
        WHERE e.location_id = $1 AND e.type = ANY($4::text[])
          AND ${bySequence ? 'e.sequence > $5::bigint' : 'e.occurred_at > $5::timestamptz'}
          AND EXISTS (SELECT 1 FROM connections c WHERE c.location_id = $1 AND c.provider_id = $6
                         AND c.covered @> e.sequence)
        ORDER BY e.sequence
       RETURNING id`,
      [
        endpoint.locationId,
        endpoint.id,
        crypto.randomUUID(),
        [...endpoint.events],
        bySequence ? from.afterSequence : instantToDb(from.since),
        endpoint.providerId,
      ],
    );
    return { queued: inserted.length };
  }
}
