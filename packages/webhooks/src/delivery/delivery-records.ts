import { Instant, type EventType, type StoredEvent } from '@pis/domain';
import type { DataSource } from 'typeorm';
import { statementRunner, type StatementRunner } from '@pis/persistence';
import { statement } from '../sql/sql';
import type { SendResult } from './http-sender';
import type { AttemptDecision } from './retry-policy';

/** A pending delivery this process holds a lease on (its `next_attempt_at` pushed ahead), with its event. */
export interface ClaimedDelivery {
  id: string;
  locationId: string;
  endpointId: string;
  event: StoredEvent;
  generation: number;
  /** Attempts made in this generation before the claimed one. */
  attemptCount: number;
}

export type ClaimById =
  | { kind: 'claimed'; delivery: ClaimedDelivery }
  /** Pending, but its next attempt (or another holder's lease) is not due before this epoch ms. */
  | { kind: 'not-due'; dueAt: number }
  /** Nothing to do: no such delivery, already settled, or redelivered under a newer generation. */
  | { kind: 'nothing-to-do'; why: 'gone' | 'settled' | 'superseded' };

interface ClaimRow {
  id: string;
  location_id: string;
  endpoint_id: string;
  generation: number;
  attempt_count: number;
  event_id: string;
  event_type: EventType;
  sequence: string;
  occurred_micros: string;
  data: unknown;
}

/** What a claim returns: the delivery and its outbox event (`e`). */
const CLAIMED_COLUMNS = `d.id, d.location_id, d.endpoint_id, d.generation, d.attempt_count,
  e.id AS event_id, e.type AS event_type, e.sequence::text AS sequence, e.data,
  (extract(epoch FROM e.occurred_at) * 1000000)::bigint::text AS occurred_micros`;

/** SQL for "now plus the milliseconds in parameter `param`". */
const msFromNow = (param: string) => `clock_timestamp() + make_interval(secs => ${param}::float8 / 1000)`;

const toClaimed = (r: ClaimRow): ClaimedDelivery => ({
  id: r.id,
  locationId: r.location_id,
  endpointId: r.endpoint_id,
  generation: Number(r.generation),
  attemptCount: Number(r.attempt_count),
  event: {
    id: r.event_id,
    locationId: r.location_id,
    sequence: Number(r.sequence),
    type: r.event_type,
    occurredAt: Instant.fromEpochMicros(BigInt(r.occurred_micros)),
    data: typeof r.data === 'string' ? JSON.parse(r.data) : r.data,
  } as StoredEvent,
});

/**
 * The delivery rows as the sender side reads and writes them. Scheduling runs on the
 * database clock (`clock_timestamp()`), so processes with skewed clocks agree on what is
 * due. A claim is a lease: `next_attempt_at` moves `leaseMs` ahead, so no other process
 * attempts the delivery meanwhile, and a process that dies mid-attempt only delays it.
 * Each method is one statement (one round trip, atomic on its own); the ones every attempt
 * runs are named prepared statements.
 */
export class DeliveryRecords {
  /** The statements every attempt runs, prepared on the pool (on PGlite, plain statements). */
  private readonly prepared: StatementRunner;

  constructor(
    private readonly db: DataSource,
    private readonly leaseMs: number,
  ) {
    this.prepared = statementRunner(db);
  }

  /** Claims one delivery for the attempt a queue job of `generation` stands for. */
  async claimById(id: string, generation: number): Promise<ClaimById> {
    const [claimed] = await this.prepared<ClaimRow>(
      'pis_delivery_claim',
      `UPDATE webhook_deliveries d SET next_attempt_at = ${msFromNow('$3')}
         FROM outbox_events e
        WHERE d.id = $1 AND d.generation = $2 AND d.status = 'pending' AND e.id = d.event_id
          AND (d.next_attempt_at IS NULL OR d.next_attempt_at <= clock_timestamp())
        RETURNING ${CLAIMED_COLUMNS}`,
      [id, generation, this.leaseMs],
    );
    if (claimed) return { kind: 'claimed', delivery: toClaimed(claimed) };
    const [row] = await statement<{ status: string; generation: number; due_ms: number | null }>(
      this.db,
      `SELECT status, generation, (extract(epoch FROM next_attempt_at) * 1000)::float8 AS due_ms
         FROM webhook_deliveries WHERE id = $1`,
      [id],
    );
    if (!row) return { kind: 'nothing-to-do', why: 'gone' };
    if (Number(row.generation) !== generation) return { kind: 'nothing-to-do', why: 'superseded' };
    if (row.status !== 'pending') return { kind: 'nothing-to-do', why: 'settled' };
    return { kind: 'not-due', dueAt: Number(row.due_ms ?? Date.now()) };
  }

  /**
   * Claims up to `limit` due pending deliveries that no other process has locked (the
   * in-process poller). Without a queue, `queued_generation` is the generation the attempt
   * count belongs to: a redelivered (newer) generation starts the retry schedule over.
   */
  async claimDue(limit: number): Promise<ClaimedDelivery[]> {
    const claimed = await this.prepared<ClaimRow>(
      'pis_delivery_claim_due',
      `UPDATE webhook_deliveries d
          SET next_attempt_at = ${msFromNow('$2')},
              attempt_count = CASE WHEN d.queued_generation IS DISTINCT FROM d.generation THEN 0 ELSE d.attempt_count END,
              queued_generation = d.generation
         FROM (SELECT id FROM webhook_deliveries
                WHERE status = 'pending' AND next_attempt_at <= clock_timestamp()
                ORDER BY next_attempt_at LIMIT $1 FOR UPDATE SKIP LOCKED) due,
              outbox_events e
        WHERE d.id = due.id AND e.id = d.event_id
        RETURNING ${CLAIMED_COLUMNS}`,
      [limit, this.leaseMs],
    );
    return claimed.map(toClaimed);
  }

  /**
   * Records the attempt and what follows it, in one statement. The delivery row changes
   * only while it is still the claimed generation: a redelivery requested meanwhile wins.
   * A 410 also disables the endpoint.
   */
  async recordAttempt(
    delivery: ClaimedDelivery,
    attemptedAt: Date,
    result: SendResult,
    decision: AttemptDecision,
  ): Promise<void> {
    await this.prepared(
      'pis_delivery_record',
      `WITH attempt AS (
         INSERT INTO webhook_attempts (delivery_id, attempted_at, response_status, duration_ms, error)
         VALUES ($1, $3, $4, $5, $6)
       ), delivery AS (
         UPDATE webhook_deliveries
            SET attempt_count = attempt_count + 1, status = $7, updated_at = clock_timestamp(),
                next_attempt_at = CASE WHEN $8::float8 IS NULL THEN NULL ELSE ${msFromNow('$8')} END
          WHERE id = $1 AND generation = $2 AND status = 'pending'
       ), endpoint AS (
         UPDATE webhook_endpoints SET disabled_at = clock_timestamp()
          WHERE $9::boolean AND id = $10 AND disabled_at IS NULL
       )
       SELECT 1`,
      [
        delivery.id,
        delivery.generation,
        attemptedAt.toISOString(),
        result.status,
        result.durationMs,
        result.error,
        decision.kind === 'retry' ? 'pending' : decision.kind,
        decision.kind === 'retry' ? decision.delayMs : null,
        decision.kind === 'failed' && decision.disableEndpoint,
        delivery.endpointId,
      ],
    );
  }
}
