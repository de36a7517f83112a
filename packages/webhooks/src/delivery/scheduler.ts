import type { CarriedDelivery, ClaimedDelivery, ClaimRoom, RelayedDelivery, RelayHandOff } from '@pis/ports';

/** One job per delivery generation: handing it over twice (two relays, a retry) schedules it once. */
export const deliveryJobId = (deliveryId: string, generation: number) => `${deliveryId}-${generation}`;

/** A delivery generation a scheduler hands out to be attempted. */
export interface ScheduledJob {
  /** `<deliveryId>-<generation>` (`deliveryJobId`). */
  readonly id: string;
  readonly deliveryId: string;
  readonly generation: number;
  /**
   * The endpoint it goes to, so that its slots apply before the delivery is touched; absent
   * only on a job Redis kept without its data (then no cap applies to it).
   */
  readonly endpointId: string | undefined;
  /** The delivery already leased, with its event (a scheduler that claims as it hands out); null: lease it by id. */
  readonly claimed: ClaimedDelivery | null;
  /** What the job carries of its delivery (its location and event), so that leasing it reads nothing more; null: read it. */
  readonly carried: CarriedDelivery | null;
  /** The job a relay handed its delivery to, no run of it attempting elsewhere: the relay's lease is its own (`DeliveryLeases.claimById`). */
  readonly ownsRelayLease: boolean;
}

/** Why a job is delayed: the delivery is not due yet, a retry follows its attempt, or its endpoint has no free slot here. */
export type DelayReason = 'not-due' | 'retry' | 'parked';

/**
 * Where delivery generations wait until they are due and from which the engine receives
 * them: enqueue with a delay, receive, delay again, complete. PostgreSQL stays the record of
 * every delivery; a scheduler only decides when a process attempts one. Two implementations:
 * BullMQ (the worker deployment) and a lease poller over PostgreSQL itself (the API without
 * Redis, embedded or not).
 */
export interface DeliveryScheduler<J extends ScheduledJob = ScheduledJob> {
  /**
   * Set when `enqueue` hands new deliveries to a queue the store does not see (BullMQ): the
   * relay marks them queued as it inserts them, and leases them for the first attempt, which
   * the scheduler hands out already leased (`claimed`).
   */
  readonly handOff: RelayHandOff | null;
  /** New delivery generations, due now (the relay's). A hand-off that fails leaves them to the scheduler's own recovery. */
  enqueue(deliveries: readonly RelayedDelivery[]): Promise<void>;
  /**
   * Jobs to attempt now, at most `max` (the engine's free slots); resolves once there is at
   * least one, or with none once the scheduler stops receiving. A scheduler that chooses
   * what it hands out takes no more of an endpoint's jobs than its `room()`.
   */
  receive(max: number, room: () => ClaimRoom): Promise<J[]>;
  /** The job comes back at `at` (epoch ms). */
  delay(job: J, at: number, reason: DelayReason): Promise<void>;
  /** The job is over: attempted without a retry to follow, or nothing left to do. */
  complete(job: J): Promise<void>;
  /** The attempt could not be completed (the store was unreachable): the scheduler brings the job back by its own means. */
  abandon(job: J, error: unknown): Promise<void>;
  /**
   * How to bring back now a job about to be delayed as `parked`; what it answers resolves
   * false when the job no longer waits (back already, or gone). It keeps only what calling
   * back needs, not the job: a process holds one for every job parked by it, and after
   * Redis lost its data that was 20,000 jobs with their events.
   */
  callBackOf(job: J): () => Promise<boolean>;
  /**
   * Work may be due: look now rather than at the next poll. `freed`: a slot of that endpoint
   * freed (a scheduler that claims within each endpoint's room looks again only if it left
   * some of that endpoint's due work behind).
   */
  wake(freed?: string): void;
  start(): void;
  /** Stops handing out jobs; a pending `receive` resolves with none. Jobs already handed out may still be settled. */
  stopReceiving(): Promise<void>;
  /** Lets go of everything (after the engine waited for its attempts in flight). */
  close(): Promise<void>;
}
