import type { DeliverableEvent, Instant } from '@pis/domain';

/*
 * What the webhook pipeline needs of storage, from a committed outbox event to a recorded
 * attempt. Every schedule (due times, leases, retry delays) is computed on the store's own
 * clock, so processes with skewed clocks agree on what is due. Each call is atomic on its own.
 */

/** What one relay batch did. */
export interface RelayBatch {
  /** Outbox events marked relayed by this batch. */
  events: number;
  /** The deliveries created for them (events of locations without a wanting endpoint get none), with what their attempts need. */
  created: RelayedDelivery[];
}

/** A relay's deliveries go to a queue: marked queued and leased for their first attempt as they are inserted. */
export interface RelayHandOff {
  leaseMs: number;
}

/** Turns committed outbox events into deliveries, at least once. */
export interface OutboxRelayStore {
  /**
   * Claims up to `limit` unrelayed events that no other relay holds, creates one pending
   * delivery per event for its location's endpoint when that exists, is enabled and
   * subscribes to the type, and marks the events relayed, all or nothing. A repeated
   * fan-out of an event never creates a second delivery for the same endpoint.
   * `handOff`: the caller hands the new deliveries to its queue itself right after, and
   * the queue's first run of each one's job attempts it: they are marked queued (see
   * `EnqueueCandidates`) and leased for that first attempt (`leaseMs`) as they are created,
   * so that attempt needs no claim of its own.
   */
  relayBatch(limit: number, handOff?: RelayHandOff): Promise<RelayBatch>;
}

/** What a delivery is about, as a queue job may carry it: leasing it then needs no read of its event. */
export interface CarriedDelivery {
  locationId: string;
  endpointId: string;
  event: DeliverableEvent;
}

/** A delivery the relay just created (generation 0, due now), with what its attempt needs. */
export interface RelayedDelivery extends CarriedDelivery {
  deliveryId: string;
  generation: number;
}

/** A pending delivery this process holds a lease on (no one else attempts it meanwhile), with its event. */
export interface ClaimedDelivery {
  id: string;
  locationId: string;
  endpointId: string;
  event: DeliverableEvent;
  /** Bumped by every redelivery; an attempt is recorded against the generation it claimed. */
  generation: number;
  /** Attempts made in this generation before the claimed one. */
  attemptCount: number;
}

export type ClaimById =
  | { kind: 'claimed'; delivery: ClaimedDelivery }
  /** Pending, but its next attempt (or another holder's lease) is not due before `dueAt`. */
  | { kind: 'not-due'; dueAt: Instant }
  /** Nothing to do: no such delivery, already settled, or redelivered under a newer generation. */
  | { kind: 'nothing-to-do'; why: 'gone' | 'settled' | 'superseded' };

/**
 * How many more attempts each endpoint may start in the claiming process (its free slots):
 * `endpoints` gives some endpoints a room of their own (0: none now); every other endpoint
 * has `otherwise`.
 */
export interface ClaimRoom {
  endpoints: ReadonlyMap<string, number>;
  otherwise: number;
}

/**
 * Leases on due deliveries. A lease pushes the delivery's due time `leaseMs` ahead, so a
 * process that dies mid-attempt only delays it.
 */
export interface DeliveryLeases {
  /**
   * Claims the delivery for the attempt a queue job of `generation` stands for. With
   * `carried` (what the job carries of it), the delivery is taken from there and only
   * its row is read and leased. `ownsRelayLease`: the job is the one a relay handed the
   * delivery to (`RelayHandOff`) and no run of it may be attempting elsewhere, so a lease
   * still running on a delivery never attempted is the one the relay took for this job, and
   * is renewed rather than waited for.
   */
  claimById(
    deliveryId: string,
    generation: number,
    leaseMs: number,
    carried?: CarriedDelivery,
    ownsRelayLease?: boolean,
  ): Promise<ClaimById>;
  /**
   * Gives back the lease of a claimed delivery without an attempt: due again `dueInMs` from
   * now (its endpoint had no free slot). Answers the new due time, or null when the delivery
   * is no longer this generation's and pending.
   */
  handBack(deliveryId: string, generation: number, dueInMs: number): Promise<Instant | null>;
  /**
   * Makes a delivery handed back (`handBack`) due now, only while it still waits for the due
   * time it was handed back with (no one has claimed it since). Answers whether it did.
   */
  dueNow(deliveryId: string, generation: number, handedBackUntil: Instant): Promise<boolean>;
  /**
   * Claims up to `limit` due pending deliveries, earliest due first, skipping those another
   * process is claiming, and at most its `room` of each endpoint's (no limit but `limit`
   * without `room`): one endpoint's backlog never takes slots its cap does not give it. A
   * store may read only so far ahead: a claim that gave an endpoint all of its room may have
   * left other endpoints' due deliveries behind that endpoint's backlog, for the next claim.
   */
  claimDue(limit: number, leaseMs: number, room?: ClaimRoom): Promise<ClaimedDelivery[]>;
}

/** One HTTP attempt as it is recorded. */
export interface AttemptResult {
  attemptedAt: Instant;
  /** The receiver's HTTP status; null when no response came. */
  responseStatus: number | null;
  durationMs: number;
  /** Why it failed, in a sentence; null on success. */
  error: string | null;
}

/** What follows an attempt. */
export type AttemptFollowUp =
  { kind: 'succeeded' } | { kind: 'retry'; delayMs: number } | { kind: 'failed'; disableEndpoint: boolean };

/** How long an endpoint may fail every attempt before it is disabled. */
export interface EndpointHealthPolicy {
  disableAfterFailingMs: number;
  /** The reason it is disabled with then. */
  failingReason: string;
}

export interface AttemptLog {
  /**
   * Records the attempt and what follows it, in one step. The delivery changes only while it
   * is still the claimed generation and pending (a redelivery requested meanwhile wins); the
   * attempt itself is always kept as history. The endpoint's health follows every attempt:
   * a success ends its run of failures; a failure starts one (at `attemptedAt`) unless one
   * runs; an endpoint whose run of failures began `disableAfterFailingMs` or more before
   * this attempt is disabled, and so is one whose receiver answered 410 Gone
   * (`disableEndpoint`). `health` null: the attempt never reached the receiver (it was
   * refused before sending), so the endpoint's health is left as it is. Answers whether this
   * call disabled the endpoint.
   */
  record(
    delivery: ClaimedDelivery,
    result: AttemptResult,
    followUp: AttemptFollowUp,
    health: EndpointHealthPolicy | null,
  ): Promise<{ endpointDisabled: boolean }>;
}

/** A delivery generation that a queue job stands for. */
export interface DeliveryJob {
  deliveryId: string;
  generation: number;
}

/** A job as the queue takes it: with the endpoint it goes to (per-endpoint caps apply before a claim). */
export interface QueuedJob extends DeliveryJob {
  endpointId: string;
}

/**
 * Which delivery generations a job queue still has to take. The store is the truth. A
 * generation is marked queued after the queue accepted its job, or, for the deliveries a
 * relay creates, as they are inserted by a relay that hands them to the queue right after
 * (and marks them unqueued again when the queue refuses them): a relay that dies in between
 * leaves marked deliveries without a job, which the queue's safety net finds as overdue
 * (`overdueQueued`). Either way a delivery is enqueued again, never lost.
 */
export interface EnqueueCandidates {
  /** Up to `limit` pending generations never marked queued, earliest due first, with the wait until due. */
  unqueued(limit: number): Promise<(QueuedJob & { delayMs: number })[]>;
  /** Marks these generations queued (a generation superseded meanwhile stays unqueued). */
  markQueued(jobs: readonly DeliveryJob[]): Promise<void>;
  /** Marks these generations unqueued again: the queue refused the jobs a relay marked them queued for. */
  markUnqueued(jobs: readonly DeliveryJob[]): Promise<void>;
  /**
   * Pending generations marked queued, earliest due first, at most `limit`, strictly after
   * `after` in that order when given: the jobs a queue may have lost. `overdueAfterMs`: only
   * those whose attempt is more than that overdue; null: every one (the queue lost its data).
   */
  overdueQueued(
    overdueAfterMs: number | null,
    limit: number,
    after?: OverduePosition | null,
  ): Promise<(QueuedJob & { position: OverduePosition })[]>;
}

/** Keyset position in the overdue listing (opaque to callers). */
export type OverduePosition = string;

/** Signals that events were committed, here or (where the store can tell) in another process. */
export interface OutboxSignals {
  /**
   * Calls `listener` after commits that appended events, and once whenever the signal
   * source (re)connects, since commits made meanwhile went unsignalled. A signal may still
   * be lost, so relays poll too. Answers a function that unsubscribes.
   */
  subscribe(listener: () => void): Promise<() => Promise<void>>;
}

/** Everything the webhook pipeline stores through. */
export interface DeliveryPipelineStore {
  relay: OutboxRelayStore;
  leases: DeliveryLeases;
  attempts: AttemptLog;
  candidates: EnqueueCandidates;
  signals: OutboxSignals;
}
