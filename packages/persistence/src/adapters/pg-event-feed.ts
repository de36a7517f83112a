import type {
  EventFeedQueries,
  EventRecoveryRepository,
  EventRetention,
  FeedPage,
  FeedQuery,
  Instant,
  RecoverFrom,
  TableStateRead,
  WebhookEndpoint,
} from '@pis/domain';
import type { Database } from '../db/database';
import type { Sql } from '../db/sql';
import { instantFromDb, instantToDb } from '../db-instant';
import { orderMapper } from '../mappers/order.mapper';
import { outboxEventMapper } from '../mappers/outbox-event.mapper';
import type { OrderRow } from '../schemas/order.schema';
import type { OutboxEventRow } from '../schemas/outbox-event.schema';
import { readLatestPublished } from './floor-plan-reads';
import { isUuid } from './uuid';

/*
 * The event feed, the table-state snapshot, recover and retention on PostgreSQL (and PGlite).
 * A location's sequences are handed out under its row lock in commit order (PgOutbox), so a
 * reader that sees sequence n has seen every smaller one: the feed needs no gap detection.
 */

type FeedRow = Omit<OutboxEventRow, 'created_at' | 'relayed_at'> & { pruned: number };

/** The feed and the snapshot, outside any transaction. */
export class PgEventFeedQueries implements EventFeedQueries {
  constructor(private readonly db: Database) {}

  /**
   * One statement, so the retention mark and the events agree: a prune that commits meanwhile
   * is seen whole or not at all. Walks `outbox_events_location_sequence (location_id, sequence)`.
   */
  async page({ locationId, providerId, after, limit, types }: FeedQuery): Promise<FeedPage> {
    if (!isUuid(locationId)) return { events: [], oldestRetainedSequence: 1 };
    if (providerId !== undefined && !isUuid(providerId)) return { events: [], oldestRetainedSequence: 1 };
    // A provider's connection spans are read once (an uncorrelated subquery): the walk keeps
    // only the sequences they cover, as it keeps only the types asked for.
    const rows = await this.db.read(
      (sql) =>
        sql.rows<FeedRow>(
          `SELECT l.events_pruned_through AS pruned, e.id, e.location_id, e.sequence, e.type, e.occurred_at, e.data,
                e.reservation_provider_id
           FROM locations l
           LEFT JOIN LATERAL (
             SELECT * FROM outbox_events
              WHERE location_id = l.id AND sequence > $2 AND ($4::text[] IS NULL OR type = ANY($4::text[]))
                AND ($5::uuid IS NULL OR sequence <@ (SELECT covered FROM connections
                                                      WHERE location_id = $1 AND provider_id = $5::uuid))
              ORDER BY sequence LIMIT $3) e ON true
          WHERE l.id = $1
          ORDER BY e.sequence`,
          [locationId, after, limit, types === null ? null : [...types], providerId ?? null],
        ),
      { location: locationId },
    );
    const pruned = rows[0]?.pruned ?? 0;
    return {
      // The walk is by sequence: every row it finds has one.
      events: rows
        .filter((r) => r.id !== null)
        .map((r) => outboxEventMapper.toDomain({ ...r, sequence: Number(r.sequence) })),
      oldestRetainedSequence: Number(pruned) + 1,
    };
  }

  /** The sequence, the published plan and the open orders from one REPEATABLE READ snapshot. */
  async tableState(locationId: string): Promise<TableStateRead> {
    if (!isUuid(locationId)) return { asOfSequence: 0, plan: null, openOrders: [] };
    return this.db.snapshot(
      async (sql) => {
        const location = await sql.first<{ event_sequence: number }>(
          `SELECT event_sequence FROM locations WHERE id = $1`,
          [locationId],
        );
        const plan = await readLatestPublished(sql, locationId);
        const orders = await sql.rows<OrderRow>(
          `SELECT * FROM orders WHERE id IN (
           SELECT open_order_id FROM dining_tables WHERE location_id = $1 AND open_order_id IS NOT NULL)
         ORDER BY opened_at, id`,
          [locationId],
        );
        return {
          asOfSequence: Number(location?.event_sequence ?? 0),
          plan,
          openOrders: orders.map(orderMapper.toDomain),
        };
      },
      { location: locationId },
    );
  }
}

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
      await sql.rows(
        `DELETE FROM webhook_attempts WHERE delivery_id IN (
           SELECT id FROM webhook_deliveries WHERE event_id = ANY($1::uuid[]))`,
        [ids],
      );
      await sql.rows(`DELETE FROM webhook_deliveries WHERE event_id = ANY($1::uuid[])`, [ids]);
      await sql.rows(
        `WITH gone AS (DELETE FROM outbox_events WHERE id = ANY($1::uuid[])
                       RETURNING location_id, sequence, occurred_at),
              newest AS (SELECT DISTINCT ON (location_id) location_id, sequence, occurred_at
                           FROM gone WHERE sequence IS NOT NULL ORDER BY location_id, sequence DESC)
         UPDATE locations l SET events_pruned_through = n.sequence, events_pruned_through_at = n.occurred_at
           FROM newest n WHERE l.id = n.location_id AND n.sequence > l.events_pruned_through`,
        [ids],
      );
      return doomed.length;
    });
  }
}
