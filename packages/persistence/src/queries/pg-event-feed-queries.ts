import type { EventFeedQueries, FeedPage, FeedQuery } from '@pis/domain';
import type { Database } from '../db/database';
import { outboxEventMapper } from '../mappers/outbox-event.mapper';
import type { OutboxEventRow } from '../schemas/outbox-event.schema';
import { isUuid } from '../adapters/uuid';

/*
 * The event feed on PostgreSQL (and PGlite).
 * A location's sequences are handed out under its row lock in commit order (PgOutbox), so a
 * reader that sees sequence n has seen every smaller one: the feed needs no gap detection.
 */

type FeedRow = Omit<OutboxEventRow, 'created_at' | 'relayed_at'> & { pruned: number };

/** The feed, outside any transaction. */
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
}
