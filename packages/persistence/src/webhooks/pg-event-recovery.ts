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
    if (endpoint.locationId === null) return this.requeueProviderScope(endpoint, from);
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

  /**
   * Recover for a provider-scope endpoint, by time only (sequences are per location): every
   * retained event after `since` of each location the provider's connection covered it at
   * (walked per connection of `connections_provider`), and the provider's connection events
   * (`outbox_events_connection`), in the order they joined the outbox. `expired` when any
   * of those locations pruned an event after `since`.
   */
  private async requeueProviderScope(
    endpoint: WebhookEndpoint,
    from: RecoverFrom,
  ): Promise<{ queued: number } | 'expired'> {
    if (!('since' in from)) throw new Error('a provider-scope endpoint recovers by time only');
    const mark = await this.sql.first<{ pruned_at: string | null }>(
      `SELECT max(l.events_pruned_through_at) AS pruned_at
         FROM connections c JOIN locations l ON l.id = c.location_id WHERE c.provider_id = $1`,
      [endpoint.providerId],
    );
    if (mark?.pruned_at != null && instantFromDb(mark.pruned_at).isAfter(from.since)) return 'expired';
    const inserted = await this.sql.rows<{ id: string }>(
      `INSERT INTO webhook_deliveries (id, location_id, endpoint_id, event_id, event_type, sequence, status,
                                       attempt_count, next_attempt_at, generation, created_at, updated_at,
                                       recovered_by)
       SELECT gen_random_uuid(), e.location_id, $2, e.id, e.type, e.sequence, 'pending',
              0, t.now + make_interval(secs => (row_number() OVER (ORDER BY e.created_at, e.id)) / 1000000.0),
              0, t.now, t.now, $3
         FROM (SELECT e.* FROM connections c
                 JOIN outbox_events e ON e.location_id = c.location_id AND c.covered @> e.sequence
                WHERE c.provider_id = $1 AND e.occurred_at > $5::timestamptz AND e.type = ANY($4::text[])
               UNION ALL
               SELECT e.* FROM outbox_events e
                WHERE e.provider_id = $1 AND e.occurred_at > $5::timestamptz AND e.type = ANY($4::text[])) e,
              (SELECT clock_timestamp() AS now) t
        ORDER BY e.created_at, e.id
       RETURNING id`,
      [endpoint.providerId, endpoint.id, crypto.randomUUID(), [...endpoint.events], instantToDb(from.since)],
    );
    return { queued: inserted.length };
  }
}
