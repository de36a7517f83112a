import type { Sql } from '../db/sql';

/*
 * The columns of `locations` that follow its outbox: the last sequence handed out and the
 * last sequence retention pruned. The outbox and retention write them through here.
 */

/**
 * Hands out the location's next `count` sequences: bumping `event_sequence` row-locks the
 * location until commit, so its sequences are handed out one transaction at a time, in
 * commit order. Answers the last one, or null when there is no such location.
 */
export async function bumpEventSequence(sql: Sql, locationId: string, count: number): Promise<number | null> {
  const bumped = await sql.first<{ event_sequence: number }>(
    `UPDATE locations SET event_sequence = event_sequence + $2 WHERE id = $1 RETURNING event_sequence`,
    [locationId, count],
  );
  return bumped === null ? null : bumped.event_sequence;
}

/** An outbox event retention deleted, as its DELETE returned it. */
export interface PrunedEvent {
  location_id: string;
  sequence: number;
  occurred_at: string;
}

/** Moves each location's retention mark to the newest of its pruned events (never back). */
export async function markEventsPruned(sql: Sql, gone: readonly PrunedEvent[]): Promise<void> {
  if (gone.length === 0) return;
  await sql.rows(
    `WITH gone AS (SELECT * FROM unnest($1::uuid[], $2::bigint[], $3::timestamptz[])
                     AS g(location_id, sequence, occurred_at)),
          newest AS (SELECT DISTINCT ON (location_id) location_id, sequence, occurred_at
                       FROM gone WHERE sequence IS NOT NULL ORDER BY location_id, sequence DESC)
     UPDATE locations l SET events_pruned_through = n.sequence, events_pruned_through_at = n.occurred_at
       FROM newest n WHERE l.id = n.location_id AND n.sequence > l.events_pruned_through`,
    [gone.map((e) => e.location_id), gone.map((e) => e.sequence), gone.map((e) => e.occurred_at)],
  );
}
