import { GONE_REASON, Instant, type DeliverableEvent, type EventType } from '@pis/domain';
import {
  type AttemptFollowUp,
  type AttemptLog,
  type AttemptResult,
  type CarriedDelivery,
  type ClaimById,
  type ClaimedDelivery,
  type ClaimRoom,
  type DeliveryJob,
  type DeliveryLeases,
  type EndpointHealthPolicy,
  type EnqueueCandidates,
  type OutboxRelayStore,
  type OutboxSignals,
  type OverduePosition,
  type QueuedJob,
  type RelayBatch,
  type RelayHandOff,
} from '@pis/ports';
import type { Database } from '../db/database';
import { OUTBOX_CHANNEL } from '../outbox/pg-outbox';
import type { PgUnitOfWork } from '../adapters/pg-unit-of-work';

/*
 * The webhook pipeline's storage on PostgreSQL (and PGlite). Every schedule runs on the
 * database clock (`clock_timestamp()`). Each method is one statement or one transaction;
 * the ones every attempt runs are named prepared statements.
 */

interface ClaimRow {
  id: string;
  location_id: string;
  endpoint_id: string;
  generation: number;
  attempt_count: number;
  event_id: string;
  event_type: EventType;
  sequence: string | null;
  occurred_micros: string;
  data: unknown;
  reservation_provider_id: string | null;
  provider_id: string | null;
}

/** What a claim returns: the delivery and its outbox event (`e`). */
const CLAIMED_COLUMNS = `d.id, d.location_id, d.endpoint_id, d.generation, d.attempt_count,
  e.id AS event_id, e.type AS event_type, e.sequence::text AS sequence, e.data, e.reservation_provider_id,
  e.provider_id, e.trace_context, (extract(epoch FROM e.occurred_at) * 1000000)::bigint::text AS occurred_micros`;

/** A due-deliveries claim reads this many times its limit, so that a few endpoints' backlogs leave room for others. */
const CLAIM_WINDOW = 4;

/** SQL for "now plus the milliseconds in parameter `param`". */
const msFromNow = (param: string) => `clock_timestamp() + make_interval(secs => ${param}::float8 / 1000)`;

/**
 * The outbox event of a row that carries its columns (`CLAIMED_COLUMNS`, the relay's answer):
 * a location's event, or (no sequence) a connection event for the provider in `provider_id`.
 */
const eventOf = (r: {
  event_id: string;
  location_id: string;
  sequence: string | null;
  event_type: EventType;
  occurred_micros: string;
  data: unknown;
  reservation_provider_id: string | null;
  provider_id?: string | null;
  trace_context?: Record<string, string> | null;
}): DeliverableEvent =>
  ({
    id: r.event_id,
    locationId: r.location_id,
    sequence: r.sequence === null ? null : Number(r.sequence),
    ...(r.sequence === null ? { providerId: r.provider_id } : {}),
    type: r.event_type,
    occurredAt: Instant.fromEpochMicros(BigInt(r.occurred_micros)),
    data: typeof r.data === 'string' ? JSON.parse(r.data) : r.data,
    // The provider owning the reservation the event names: whom delivery may show its id.
    ...(r.reservation_provider_id === null ? {} : { reservationProviderId: r.reservation_provider_id }),
    // The trace of the write that raised it (docs/decisions/0230-trace-propagation.md).
    ...(r.trace_context ? { traceContext: r.trace_context } : {}),
  }) as DeliverableEvent;

const toClaimed = (r: ClaimRow): ClaimedDelivery => ({
  id: r.id,
  locationId: r.location_id,
  endpointId: r.endpoint_id,
  generation: Number(r.generation),
  attemptCount: Number(r.attempt_count),
  event: eventOf(r),
});

interface RelayRow {
  events: number;
  id: string | null;
  location_id: string;
  endpoint_id: string;
  event_id: string;
  event_type: EventType;
  sequence: string | null;
  occurred_micros: string;
  data: unknown;
  reservation_provider_id: string | null;
  provider_id: string | null;
}

/**
 * One statement: claims unrelayed events with `FOR UPDATE SKIP LOCKED` (several relays share
 * the work without waiting on each other), marks them relayed, and inserts one delivery per
 * event and endpoint that wants it, in outbox order (so their due times follow it), answering
 * the deliveries with their events. Three branches, each an index walk from the event to the
 * endpoints that want it:
 * - a location event to its location's endpoints, of a provider connected to the location when
 *   the event was committed (the connection's covered sequences hold it);
 * - a location event to the provider-scope endpoints of each provider whose connection to the
 *   location covers it (`connections` by location, then `webhook_endpoints_provider_scope`);
 * - a connection event (no sequence) to its provider's provider-scope endpoints.
 * A relay that dies before it commits leaves the events unrelayed for the next;
 * `ON CONFLICT DO NOTHING` keeps a repeated fan-out harmless.
 */
export class PgOutboxRelayStore implements OutboxRelayStore {
  constructor(private readonly db: Database) {}

  async relayBatch(limit: number, handOff?: RelayHandOff): Promise<RelayBatch> {
    const rows = await this.db.prepared<RelayRow>(
      'pis_outbox_relay',
      `WITH claimed AS (
         SELECT id FROM outbox_events WHERE relayed_at IS NULL
          ORDER BY created_at, id LIMIT $1 FOR UPDATE SKIP LOCKED
       ), relayed AS (
         UPDATE outbox_events e SET relayed_at = clock_timestamp() FROM claimed c WHERE e.id = c.id
         RETURNING e.id, e.location_id, e.type, e.sequence, e.data, e.occurred_at, e.created_at,
                   e.reservation_provider_id, e.provider_id, e.trace_context
       ), created AS (
         INSERT INTO webhook_deliveries (id, location_id, endpoint_id, event_id, event_type, sequence, status,
                                         attempt_count, next_attempt_at, generation, queued_generation,
                                         created_at, updated_at)
         SELECT gen_random_uuid(), r.location_id, w.endpoint_id, r.id, r.type, r.sequence, 'pending',
                0, CASE WHEN $2::float8 IS NULL THEN clock_timestamp() ELSE ${msFromNow('$2')} END,
                0, CASE WHEN $2::float8 IS NOT NULL THEN 0 END, clock_timestamp(), clock_timestamp()
           FROM (SELECT r.id AS event_id, ep.id AS endpoint_id
                   FROM relayed r
                   JOIN webhook_endpoints ep ON ep.location_id = r.location_id
                                            AND ep.disabled_at IS NULL AND r.type = ANY(ep.events)
                   JOIN connections cn ON cn.location_id = r.location_id AND cn.provider_id = ep.provider_id
                                      AND cn.covered @> r.sequence
                 UNION ALL
                 SELECT r.id, ep.id
                   FROM relayed r
                   JOIN connections cn ON cn.location_id = r.location_id AND cn.covered @> r.sequence
                   JOIN webhook_endpoints ep ON ep.provider_id = cn.provider_id AND ep.location_id IS NULL
                                            AND ep.disabled_at IS NULL AND r.type = ANY(ep.events)
                 UNION ALL
                 SELECT r.id, ep.id
                   FROM relayed r
                   JOIN webhook_endpoints ep ON ep.provider_id = r.provider_id AND ep.location_id IS NULL
                                            AND ep.disabled_at IS NULL AND r.type = ANY(ep.events)
                  WHERE r.sequence IS NULL) w
           JOIN relayed r ON r.id = w.event_id
          ORDER BY r.created_at, r.id
         ON CONFLICT (event_id, endpoint_id) WHERE recovered_by IS NULL DO NOTHING
         RETURNING id, event_id, endpoint_id
       )
       SELECT (SELECT count(*) FROM relayed)::int AS events, c.id, r.location_id, c.endpoint_id,
              r.id AS event_id, r.type AS event_type, r.sequence::text AS sequence, r.data,
              r.reservation_provider_id, r.provider_id, r.trace_context,
              (extract(epoch FROM r.occurred_at) * 1000000)::bigint::text AS occurred_micros
         FROM (SELECT 1) AS one
         LEFT JOIN (created c JOIN relayed r ON r.id = c.event_id) ON true
        ORDER BY r.created_at, r.location_id, r.sequence, c.endpoint_id`,
      [limit, handOff?.leaseMs ?? null],
    );
    return {
      events: Number(rows[0]?.events ?? 0),
      created: rows
        .filter((r) => r.id !== null)
        .map((r) => ({
          deliveryId: r.id!,
          generation: 0,
          locationId: r.location_id,
          endpointId: r.endpoint_id,
          event: eventOf(r),
        })),
    };
  }
}

/** A claim by id as it waits for the statement that takes it (`ClaimBatches`). */
interface ClaimWanted {
  id: string;
  generation: number;
  leaseMs: number;
  ownsRelayLease: boolean;
}

/**
 * Claims by id that arrive while one statement claims others wait for it to end and then go
 * in the next, one statement for all of them (up to `CLAIMS_PER_STATEMENT`): in a burst the
 * worker's jobs arrive dozens at a time, and a statement per job was a round trip (and a
 * `writev`) per delivery. Each batch locks its rows in the order of their ids (`ORDER BY id
 * FOR UPDATE`), as the success records do, so two processes' statements never wait on each
 * other in a circle. A delivery appears once per statement: a second claim of the same one
 * goes in the next, where the first's lease makes it wait (not due), as two statements would.
 */
class ClaimBatches<R extends { wanted_id: string }> {
  private waiting: { want: ClaimWanted; settle: (row: R | undefined, error?: unknown) => void }[] = [];
  private claiming = false;

  constructor(private readonly run: (batch: readonly ClaimWanted[]) => Promise<R[]>) {}

  /** The wanted id's row of the statement that took it. */
  claim(want: ClaimWanted): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.waiting.push({
        want,
        settle: (row, error) =>
          error === undefined && row !== undefined
            ? resolve(row)
            : reject(error ?? new Error('the claim statement gave no answer for this delivery')),
      });
      this.next();
    });
  }

  private next(): void {
    if (this.claiming || this.waiting.length === 0) return;
    const batch: typeof this.waiting = [];
    const later: typeof this.waiting = [];
    const ids = new Set<string>();
    for (const entry of this.waiting) {
      if (batch.length < CLAIMS_PER_STATEMENT && !ids.has(entry.want.id)) {
        ids.add(entry.want.id);
        batch.push(entry);
      } else later.push(entry);
    }
    this.waiting = later;
    this.claiming = true;
    this.run(batch.map((e) => e.want))
      .then(
        (rows) => {
          const byId = new Map(rows.map((r) => [r.wanted_id, r]));
          for (const e of batch) e.settle(byId.get(e.want.id));
        },
        (error: unknown) => batch.forEach((e) => e.settle(undefined, error ?? new Error('claim failed'))),
      )
      .finally(() => {
        this.claiming = false;
        this.next();
      });
  }
}

/** Claims by id taken by one statement at most. */
const CLAIMS_PER_STATEMENT = 500;

/**
 * A batch of claims by id as one statement: the rows still claimable are locked in id order
 * and leased (`leased`, answering `returning`); every wanted id gets one row, with its
 * delivery as it stood (`row_*`) when it was not claimed, so that the caller can say why
 * without a statement of its own.
 */
const claimBatchSql = (returning: string, joins = '') => `
  WITH wanted AS (
    SELECT * FROM unnest($1::uuid[], $2::int[], $3::float8[], $4::boolean[]) AS w(id, generation, lease_ms, owns)
  ), claimable AS (
    SELECT d.id, w.lease_ms FROM webhook_deliveries d JOIN wanted w ON w.id = d.id
     WHERE d.generation = w.generation AND d.status = 'pending'
       AND (d.next_attempt_at IS NULL OR d.next_attempt_at <= clock_timestamp() OR (w.owns AND d.attempt_count = 0))
     ORDER BY d.id FOR UPDATE OF d
  ), leased AS (
    UPDATE webhook_deliveries d SET next_attempt_at = ${msFromNow('c.lease_ms')}
      FROM claimable c${joins}
     WHERE d.id = c.id${joins === '' ? '' : ' AND e.id = d.event_id'}
    RETURNING ${returning}
  )
  SELECT w.id AS wanted_id, l.*, s.status AS row_status, s.generation AS row_generation,
         (extract(epoch FROM coalesce(s.next_attempt_at, clock_timestamp())) * 1000000)::bigint::text AS row_due_micros
    FROM wanted w
    LEFT JOIN leased l ON l.id = w.id
    LEFT JOIN webhook_deliveries s ON l.id IS NULL AND s.id = w.id`;

/** A wanted id's row of a claim batch: the leased delivery's columns (null when not claimed) and the row as it stood. */
type ClaimAnswer<R> = {
  wanted_id: string;
  id: string | null;
  row_status: string | null;
  row_generation: number | null;
  row_due_micros: string | null;
} & R;

const claimParams = (batch: readonly ClaimWanted[]) => [
  batch.map((w) => w.id),
  batch.map((w) => w.generation),
  batch.map((w) => w.leaseMs),
  batch.map((w) => w.ownsRelayLease),
];

/** Why a delivery was not claimed, from its row as the claim's statement saw it. */
function notClaimed(answer: ClaimAnswer<unknown>, generation: number): ClaimById {
  if (answer.row_status === null) return { kind: 'nothing-to-do', why: 'gone' };
  if (Number(answer.row_generation) !== generation) return { kind: 'nothing-to-do', why: 'superseded' };
  if (answer.row_status !== 'pending') return { kind: 'nothing-to-do', why: 'settled' };
  return { kind: 'not-due', dueAt: Instant.fromEpochMicros(BigInt(answer.row_due_micros!)) };
}

/** A claim pushes `next_attempt_at` a lease ahead: no other process attempts the delivery meanwhile. */
export class PgDeliveryLeases implements DeliveryLeases {
  /** Claims of jobs that carry their event: the row alone is read and leased. */
  private readonly leases: ClaimBatches<ClaimAnswer<{ attempt_count: number | null }>>;
  /** Claims of jobs without their event: the claim reads it. */
  private readonly claims: ClaimBatches<ClaimAnswer<ClaimRow>>;

  constructor(private readonly db: Database) {
    this.leases = new ClaimBatches((batch) =>
      this.db.prepared<ClaimAnswer<{ attempt_count: number | null }>>(
        'pis_delivery_lease_batch',
        claimBatchSql('d.id, d.attempt_count'),
        claimParams(batch),
      ),
    );
    this.claims = new ClaimBatches((batch) =>
      this.db.prepared<ClaimAnswer<ClaimRow>>(
        'pis_delivery_claim_batch',
        claimBatchSql(CLAIMED_COLUMNS, ', outbox_events e'),
        claimParams(batch),
      ),
    );
  }

  async claimById(
    id: string,
    generation: number,
    leaseMs: number,
    carried?: CarriedDelivery,
    ownsRelayLease = false,
  ): Promise<ClaimById> {
    if (carried !== undefined) {
      // The job carries the event: the row alone is read and leased.
      const answer = await this.leases.claim({ id, generation, leaseMs, ownsRelayLease });
      if (answer.id === null) return notClaimed(answer, generation);
      const { locationId, endpointId, event } = carried;
      const attemptCount = Number(answer.attempt_count);
      return { kind: 'claimed', delivery: { id, locationId, endpointId, event, generation, attemptCount } };
    }
    const answer = await this.claims.claim({ id, generation, leaseMs, ownsRelayLease: false });
    if (answer.id === null) return notClaimed(answer, generation);
    return { kind: 'claimed', delivery: toClaimed(answer as ClaimRow) };
  }

  async handBack(id: string, generation: number, dueInMs: number): Promise<Instant | null> {
    const [row] = await this.db.query<{ due_micros: string }>(
      `UPDATE webhook_deliveries SET next_attempt_at = ${msFromNow('$3')}
        WHERE id = $1 AND generation = $2 AND status = 'pending'
        RETURNING (extract(epoch FROM next_attempt_at) * 1000000)::bigint::text AS due_micros`,
      [id, generation, dueInMs],
    );
    return row ? Instant.fromEpochMicros(BigInt(row.due_micros)) : null;
  }

  async dueNow(id: string, generation: number, handedBackUntil: Instant): Promise<boolean> {
    const rows = await this.db.query(
      `UPDATE webhook_deliveries SET next_attempt_at = clock_timestamp()
        WHERE id = $1 AND generation = $2 AND status = 'pending'
          AND (extract(epoch FROM next_attempt_at) * 1000000)::bigint = $3::bigint
          AND next_attempt_at > clock_timestamp()
        RETURNING id`,
      [id, generation, handedBackUntil.epochMicros.toString()],
    );
    return rows.length === 1;
  }

  /**
   * The due rows are read in due order, a window of a few times `limit`, without locking;
   * each endpoint's first `room` of them are taken, up to `limit`, and only those are locked
   * (`SKIP LOCKED`: another process claiming them keeps them) and leased. Rows of endpoints
   * without room are not even read. An endpoint whose backlog fills the window gets its
   * room and no more: the next claim skips it and reaches the others.
   */
  async claimDue(limit: number, leaseMs: number, room?: ClaimRoom): Promise<ClaimedDelivery[]> {
    const limited = [...(room?.endpoints ?? [])];
    const claimed = await this.db.prepared<ClaimRow>(
      'pis_delivery_claim_due',
      `UPDATE webhook_deliveries d SET next_attempt_at = ${msFromNow('$2')}
         FROM (SELECT id FROM webhook_deliveries
                WHERE id IN (
                  SELECT id FROM (
                    SELECT w.id, w.next_attempt_at,
                           row_number() OVER (PARTITION BY w.endpoint_id ORDER BY w.next_attempt_at, w.id) AS nth,
                           coalesce(r.room, $5) AS room
                      FROM (SELECT id, endpoint_id, next_attempt_at FROM webhook_deliveries
                             WHERE status = 'pending' AND next_attempt_at <= clock_timestamp()
                               AND endpoint_id <> ALL($6::uuid[])
                             ORDER BY next_attempt_at LIMIT $7) w
                      LEFT JOIN unnest($3::uuid[], $4::int[]) AS r(endpoint_id, room) ON r.endpoint_id = w.endpoint_id
                  ) ranked
                  WHERE nth <= room ORDER BY next_attempt_at, id LIMIT $1)
                  AND status = 'pending' AND next_attempt_at <= clock_timestamp()
                FOR UPDATE SKIP LOCKED) due,
              outbox_events e
        WHERE d.id = due.id AND e.id = d.event_id
        RETURNING ${CLAIMED_COLUMNS}`,
      [
        limit,
        leaseMs,
        limited.map(([endpointId]) => endpointId),
        limited.map(([, n]) => Math.max(0, n)),
        room?.otherwise ?? limit,
        limited.filter(([, n]) => n <= 0).map(([endpointId]) => endpointId),
        CLAIM_WINDOW * limit,
      ],
    );
    return claimed.map(toClaimed);
  }
}

/**
 * The attempt row, the delivery's next state and the endpoint's health, in one statement
 * (for all the successes, or all the failures, that end while the last one is recorded):
 * a success ends the endpoint's run of failures, a failure starts one unless one runs, and
 * a run as old as the policy allows (or a 410) disables the endpoint. The endpoint's row is
 * written (and locked) only when one of these changes it: a success on a healthy endpoint
 * leaves it alone, so the attempts of one endpoint do not queue behind each other's commit
 * on its row (decision 0140).
 */
export class PgAttemptLog implements AttemptLog {
  /** Successes waiting for the statement in flight to end; each settles with the statement it goes in. */
  private waiting: { delivery: ClaimedDelivery; result: AttemptResult; settle: (error?: unknown) => void }[] =
    [];
  private recordingSuccesses = false;
  /** Failures waiting for the statement in flight to end; each settles with the statement it goes in. */
  private failing: WaitingFailure[] = [];
  private recordingFailures = false;
  private gathering: ReturnType<typeof setTimeout> | null = null;

  constructor(private readonly db: Database) {}

  async record(
    delivery: ClaimedDelivery,
    result: AttemptResult,
    followUp: AttemptFollowUp,
    health: EndpointHealthPolicy | null,
  ): Promise<{ endpointDisabled: boolean }> {
    if (followUp.kind === 'succeeded' && health !== null) {
      await new Promise<void>((resolve, reject) => {
        this.waiting.push({
          delivery,
          result,
          settle: (error) => (error === undefined ? resolve() : reject(error)),
        });
        this.recordSuccesses();
      });
      return { endpointDisabled: false };
    }
    // Failures (and an attempt refused before it was sent) are recorded together as well.
    return new Promise((resolve, reject) => {
      this.failing.push({
        delivery,
        result,
        followUp,
        health,
        settle: (error, endpointDisabled) =>
          error === undefined ? resolve({ endpointDisabled: endpointDisabled === true }) : reject(error),
      });
      // The first of them waits a moment for the others that end about together.
      this.gathering ??= setTimeout(() => {
        this.gathering = null;
        this.recordFailures();
      }, FAILURES_GATHER_MS);
    });
  }

  /**
   * Successes are recorded together: those that end while a statement records others wait
   * for it to end and then go in the next, one statement for all of them (a success changes
   * nothing but its delivery, its attempt row and, when a run of failures ends, its
   * endpoint). Each kind of row is locked in the order of its id (`ORDER BY id FOR
   * UPDATE`), and PostgreSQL runs the statement's parts in turn, deliveries before
   * endpoints: two processes' statements do not wait on each other in a circle. One
   * statement at a time per process.
   */
  private recordSuccesses(): void {
    if (this.recordingSuccesses || this.waiting.length === 0) return;
    const batch = this.waiting.splice(0, SUCCESSES_PER_STATEMENT);
    this.recordingSuccesses = true;
    this.db
      .prepared(
        'pis_delivery_record_successes',
        `WITH success AS (
           SELECT * FROM unnest($1::uuid[], $2::int[], $3::timestamptz[], $4::int[], $5::int[], $6::uuid[])
                      AS s(delivery_id, generation, attempted_at, response_status, duration_ms, endpoint_id)
         ), attempt AS (
           INSERT INTO webhook_attempts (delivery_id, attempted_at, response_status, duration_ms, error)
           SELECT delivery_id, attempted_at, response_status, duration_ms, NULL FROM success
         ), settled AS (
           SELECT d.id FROM webhook_deliveries d JOIN success s ON s.delivery_id = d.id
            WHERE d.generation = s.generation AND d.status = 'pending'
            ORDER BY d.id FOR UPDATE OF d
         ), delivery AS (
           UPDATE webhook_deliveries d
              SET attempt_count = attempt_count + 1, status = 'succeeded', updated_at = clock_timestamp(),
                  next_attempt_at = NULL
             FROM settled WHERE d.id = settled.id
           RETURNING d.id
         ), recovered AS (
           SELECT e.id FROM webhook_endpoints e
            WHERE e.id IN (SELECT endpoint_id FROM success) AND e.failing_since IS NOT NULL
            ORDER BY e.id FOR UPDATE OF e
         ), endpoint AS (
           UPDATE webhook_endpoints e SET failing_since = NULL
             FROM recovered WHERE e.id = recovered.id
         )
         SELECT 1`,
        [
          batch.map((s) => s.delivery.id),
          batch.map((s) => s.delivery.generation),
          batch.map((s) => s.result.attemptedAt.toIsoMicros()),
          batch.map((s) => s.result.responseStatus),
          batch.map((s) => s.result.durationMs),
          batch.map((s) => s.delivery.endpointId),
        ],
      )
      .then(
        () => batch.forEach((s) => s.settle()),
        (error: unknown) => batch.forEach((s) => s.settle(error)),
      )
      .finally(() => {
        this.recordingSuccesses = false;
        this.recordSuccesses();
      });
  }

  /**
   * Failures are recorded together like successes: those that end within a few milliseconds
   * of the first (`FAILURES_GATHER_MS`: a new endpoint's first attempts timing out about
   * together, which a loaded process sees tens of milliseconds apart), or while a statement
   * records others, go in one statement, instead of one statement each on a session other
   * locations' deliveries share (PGlite's one session). The rules are the one-at-a-time ones:
   * the delivery changes only while it is still the claimed generation and pending; per
   * endpoint reached, a run of failures starts at the earliest of them unless one runs, and
   * the endpoint is disabled when a receiver answered 410 or when one of the failures comes as
   * long after the run's start as the policy allows (that failure, the 410 first, answers that
   * it disabled it; the others, that they did not). A failure attempted before the endpoint's
   * last change (a PUT that enabled it again, to the millisecond) does not judge it. Rows are
   * locked as the successes lock them, deliveries then endpoints, each in the order of its id.
   */
  private recordFailures(): void {
    if (this.recordingFailures || this.failing.length === 0) return;
    const batch = this.failing.splice(0, SUCCESSES_PER_STATEMENT);
    this.recordingFailures = true;
    this.db
      .prepared<{ disabled: string }>(
        'pis_delivery_record_failures',
        `WITH failure AS (
           SELECT * FROM unnest($1::uuid[], $2::int[], $3::timestamptz[], $4::int[], $5::int[], $6::text[],
                                $7::text[], $8::float8[], $9::boolean[], $10::uuid[], $11::float8[], $12::text[])
                      WITH ORDINALITY AS f(delivery_id, generation, attempted_at, response_status, duration_ms, error,
                           status, delay_ms, gone, endpoint_id, disable_after_ms, failing_reason, nth)
         ), attempt AS (
           INSERT INTO webhook_attempts (delivery_id, attempted_at, response_status, duration_ms, error)
           SELECT delivery_id, attempted_at, response_status, duration_ms, error FROM failure ORDER BY nth
         ), settled AS (
           SELECT d.id, f.status, f.delay_ms FROM webhook_deliveries d JOIN failure f ON f.delivery_id = d.id
            WHERE d.generation = f.generation AND d.status = 'pending'
            ORDER BY d.id FOR UPDATE OF d
         ), delivery AS (
           UPDATE webhook_deliveries d
              SET attempt_count = attempt_count + 1, status = s.status, updated_at = clock_timestamp(),
                  next_attempt_at = CASE WHEN s.delay_ms IS NULL THEN NULL ELSE ${msFromNow('s.delay_ms')} END
             FROM settled s WHERE d.id = s.id
           RETURNING d.id
         ), reached AS (
           SELECT DISTINCT endpoint_id FROM failure WHERE gone OR disable_after_ms IS NOT NULL
         ), locked AS MATERIALIZED (
           -- The endpoints' rows, locked, as they are once locked: a PUT that commits while this
           -- waits for its row is read here (PostgreSQL re-reads a locked row, but not what a
           -- subquery joined to it computed from the older version), so they are judged apart.
           SELECT e.id, e.failing_since, e.disabled_at IS NULL AS enabled,
                  date_trunc('milliseconds', e.updated_at) AS since_change
             FROM webhook_endpoints e JOIN reached r ON r.endpoint_id = e.id
            ORDER BY e.id FOR UPDATE OF e
         ), judged AS (
           -- Only failures attempted since the endpoint's last change judge it (decision 0235):
           -- a 410 in flight while a PUT enabled the endpoint again does not disable it.
           SELECT l.id, coalesce(l.failing_since, c.first_at) AS since, l.since_change,
                  l.enabled AND (c.gone OR EXISTS (
                    SELECT 1 FROM failure f WHERE f.endpoint_id = l.id AND f.disable_after_ms IS NOT NULL
                       AND f.attempted_at >= l.since_change
                       AND coalesce(l.failing_since, c.first_at)
                           <= f.attempted_at - make_interval(secs => f.disable_after_ms / 1000))) AS disable,
                  CASE WHEN c.gone THEN $13 ELSE c.reason END AS reason
             FROM locked l
             CROSS JOIN LATERAL (
               SELECT min(f.attempted_at) AS first_at, coalesce(bool_or(f.gone), false) AS gone,
                      max(f.failing_reason) AS reason
                 FROM failure f
                WHERE f.endpoint_id = l.id AND (f.gone OR f.disable_after_ms IS NOT NULL)
                  AND f.attempted_at >= l.since_change
             ) c
         ), endpoint AS (
           UPDATE webhook_endpoints e
              SET failing_since = j.since,
                  disabled_at = CASE WHEN j.disable THEN clock_timestamp() ELSE e.disabled_at END,
                  disabled_reason = CASE WHEN j.disable THEN j.reason ELSE e.disabled_reason END
             FROM judged j WHERE e.id = j.id AND (j.disable OR e.failing_since IS NULL)
           RETURNING e.id, j.since, j.disable, j.since_change
         )
         -- Per endpoint disabled, the failure that disabled it: a 410, else the first as late as the policy allows.
         SELECT (SELECT f.delivery_id FROM failure f
                  WHERE f.endpoint_id = x.id AND f.attempted_at >= x.since_change
                    AND (f.gone OR (f.disable_after_ms IS NOT NULL
                        AND x.since <= f.attempted_at - make_interval(secs => f.disable_after_ms / 1000)))
                  ORDER BY f.gone DESC, f.nth LIMIT 1)::text AS disabled
           FROM endpoint x WHERE x.disable`,
        [
          batch.map((f) => f.delivery.id),
          batch.map((f) => f.delivery.generation),
          batch.map((f) => f.result.attemptedAt.toIsoMicros()),
          batch.map((f) => f.result.responseStatus),
          batch.map((f) => f.result.durationMs),
          batch.map((f) => f.result.error),
          batch.map((f) => (f.followUp.kind === 'retry' ? 'pending' : f.followUp.kind)),
          batch.map((f) => (f.followUp.kind === 'retry' ? f.followUp.delayMs : null)),
          batch.map((f) => f.followUp.kind === 'failed' && f.followUp.disableEndpoint),
          batch.map((f) => f.delivery.endpointId),
          batch.map((f) => f.health?.disableAfterFailingMs ?? null),
          batch.map((f) => f.health?.failingReason ?? null),
          GONE_REASON,
        ],
      )
      .then(
        (rows) => {
          // The failure that disabled an endpoint answers that it did (the others of it, not).
          const disabled = new Set(rows.map((r) => r.disabled));
          for (const f of batch) f.settle(undefined, disabled.delete(f.delivery.id));
        },
        (error: unknown) => batch.forEach((f) => f.settle(error)),
      )
      .finally(() => {
        this.recordingFailures = false;
        this.recordFailures();
      });
  }
}

/** A failure waiting to be recorded (`PgAttemptLog.recordFailures`). */
interface WaitingFailure {
  delivery: ClaimedDelivery;
  result: AttemptResult;
  followUp: AttemptFollowUp;
  health: EndpointHealthPolicy | null;
  settle: (error?: unknown, endpointDisabled?: boolean) => void;
}

/** How long the first failure waits for others to go in its statement; a failure retries seconds later at the soonest. */
const FAILURES_GATHER_MS = 50;

/** Successes (and failures) recorded by one statement at most. */
const SUCCESSES_PER_STATEMENT = 500;

/** `queued_generation` is the generation whose job the queue accepted; null before the first. */
export class PgEnqueueCandidates implements EnqueueCandidates {
  constructor(private readonly db: Database) {}

  async unqueued(limit: number): Promise<(QueuedJob & { delayMs: number })[]> {
    const rows = await this.db.query<{
      id: string;
      generation: number;
      endpoint_id: string;
      delay_ms: number;
    }>(
      `SELECT id, generation, endpoint_id,
              greatest(0, extract(epoch FROM (next_attempt_at - clock_timestamp())) * 1000)::float8 AS delay_ms
         FROM webhook_deliveries
        WHERE status = 'pending' AND queued_generation IS DISTINCT FROM generation
        ORDER BY next_attempt_at LIMIT $1`,
      [limit],
    );
    return rows.map((r) => ({
      deliveryId: r.id,
      generation: Number(r.generation),
      endpointId: r.endpoint_id,
      delayMs: Math.round(Number(r.delay_ms)),
    }));
  }

  async markQueued(jobs: readonly DeliveryJob[]): Promise<void> {
    if (jobs.length === 0) return;
    await this.db.query(
      // Rows locked in id order, as claims and success records lock them (no deadlock).
      `UPDATE webhook_deliveries d SET queued_generation = q.generation
         FROM (SELECT d2.id, q2.generation FROM webhook_deliveries d2
                 JOIN unnest($1::uuid[], $2::int[]) AS q2(id, generation) ON q2.id = d2.id
                WHERE d2.generation = q2.generation ORDER BY d2.id FOR UPDATE OF d2) q
        WHERE d.id = q.id AND d.generation = q.generation`,
      [jobs.map((j) => j.deliveryId), jobs.map((j) => j.generation)],
    );
  }

  async markUnqueued(jobs: readonly DeliveryJob[]): Promise<void> {
    if (jobs.length === 0) return;
    await this.db.query(
      `UPDATE webhook_deliveries d SET queued_generation = NULL
         FROM unnest($1::uuid[], $2::int[]) AS q(id, generation)
        WHERE d.id = q.id AND d.generation = q.generation AND d.queued_generation = q.generation`,
      [jobs.map((j) => j.deliveryId), jobs.map((j) => j.generation)],
    );
  }

  async overdueQueued(
    overdueAfterMs: number | null,
    limit: number,
    after: OverduePosition | null = null,
  ): Promise<(QueuedJob & { position: OverduePosition })[]> {
    const [afterDue, afterId] = after === null ? [null, null] : splitPosition(after);
    const rows = await this.db.query<{ id: string; generation: number; endpoint_id: string; due: string }>(
      `SELECT id, generation, endpoint_id, next_attempt_at::text AS due FROM webhook_deliveries
        WHERE status = 'pending' AND queued_generation = generation
          AND ($1::float8 IS NULL OR next_attempt_at < clock_timestamp() - make_interval(secs => $1::float8 / 1000))
          AND ($3::timestamptz IS NULL OR (next_attempt_at, id) > ($3::timestamptz, $4::uuid))
        ORDER BY next_attempt_at, id LIMIT $2`,
      [overdueAfterMs, limit, afterDue, afterId],
    );
    return rows.map((r) => ({
      deliveryId: r.id,
      generation: Number(r.generation),
      endpointId: r.endpoint_id,
      position: `${r.due}|${r.id}`,
    }));
  }
}

function splitPosition(position: OverduePosition): [string, string] {
  const cut = position.lastIndexOf('|');
  return [position.slice(0, cut), position.slice(cut + 1)];
}

/** Commits of this process (announced by the unit of work) and NOTIFYs of every process. */
export class PgOutboxSignals implements OutboxSignals {
  constructor(
    private readonly db: Database,
    private readonly uow: PgUnitOfWork,
  ) {}

  async subscribe(listener: () => void): Promise<() => Promise<void>> {
    const offLocal = this.uow.onEventsCommitted(() => listener());
    const offNotify = await this.db.listen(OUTBOX_CHANNEL, () => listener(), listener);
    return async () => {
      offLocal();
      await offNotify();
    };
  }
}
