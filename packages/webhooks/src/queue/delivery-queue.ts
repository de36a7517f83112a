import { Instant, type DeliverableEvent, type WebhookEventType } from '@pis/domain';
import { type EnqueueCandidates, type RelayedDelivery } from '@pis/ports';
import { Queue, type JobsOptions } from 'bullmq';
import type { RedisClient } from '../redis/redis-client';
import { deliveryJobId } from '../delivery/scheduler';

export { deliveryJobId };

export const DELIVERY_QUEUE = 'webhook-deliveries';

/** An event as a job carries it (JSON: its instant as epoch microseconds). */
interface CarriedEventData {
  id: string;
  /** null: a connection event, for the provider in `providerId`. */
  sequence: number | null;
  providerId?: string;
  type: WebhookEventType;
  occurredAtMicros: string;
  data: unknown;
  /**
   * The provider owning the reservation the event names (null: none), so the attempt shows
   * the id to that provider only. A job without it (written before it was carried) carries
   * no event the attempt may use: the delivery's claim reads the event instead.
   */
  reservationProviderId?: string | null;
  /** The trace the attempt continues (docs/decisions/0230-trace-propagation.md); absent with tracing off. */
  traceContext?: Readonly<Record<string, string>>;
}

export interface DeliveryJobData {
  deliveryId: string;
  generation: number;
  /** The endpoint the delivery goes to (absent on jobs enqueued before per-endpoint caps). */
  endpointId?: string;
  /** The location and event, on jobs the relay handed over: the attempt reads neither. */
  locationId?: string;
  event?: CarriedEventData;
}

/** A delivery as its job names it, with its event when the job carries it. */
export interface JobDelivery {
  deliveryId: string;
  generation: number;
  endpointId?: string;
  locationId?: string;
  event?: DeliverableEvent;
}

/** BullMQ's highest priority number (the lowest priority). */
const LAST_PRIORITY = 2_097_152;

/**
 * A job's BullMQ priority: its rank among the jobs of its endpoint in one hand-off (1 for each
 * endpoint's first, 2 for its second, ...). BullMQ hands out lower numbers first, jobs of one
 * number in the order they were added: a backlog of one endpoint is interleaved with
 * everyone else's jobs instead of being ahead of them, so a quiet location's job waits behind
 * at most one job of each other endpoint, not behind a hanging endpoint's whole line (each of
 * which the engine would receive only to park it). A parked or retried job keeps its rank.
 */
export function fairPriorities(deliveries: readonly { endpointId?: string }[]): number[] {
  const ranks = new Map<string | undefined, number>();
  return deliveries.map(({ endpointId }) => {
    const rank = (ranks.get(endpointId) ?? 0) + 1;
    ranks.set(endpointId, rank);
    return Math.min(rank, LAST_PRIORITY);
  });
}

/** Jobs the relay's hand-off adds to Redis at once (one relay batch of one endpoint's events). */
const HAND_OFF_SLICE = 500;

/** Job states that mean the delivery has no job to run any more. */
const LOST_STATES = new Set<string>(['unknown', 'completed', 'failed']);

const JOB_ID = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})-(\d{1,9})$/;

/**
 * The delivery a job stands for: its data, or, when Redis holds the job without its data (a
 * command in flight while its keys were deleted wrote part of it back), its id, which names
 * the delivery and generation. Null for a job that is neither.
 */
export function deliveryOfJob(
  jobId: string | undefined,
  data: Partial<DeliveryJobData> | undefined,
): JobDelivery | null {
  if (typeof data?.deliveryId === 'string' && typeof data.generation === 'number') {
    const { deliveryId, generation, endpointId, locationId, event } = data;
    return {
      deliveryId,
      generation,
      endpointId,
      locationId,
      event:
        event && locationId && event.reservationProviderId !== undefined
          ? ({
              id: event.id,
              locationId,
              sequence: event.sequence,
              ...(event.sequence === null ? { providerId: event.providerId } : {}),
              type: event.type,
              occurredAt: Instant.fromEpochMicros(BigInt(event.occurredAtMicros)),
              data: event.data,
              ...(event.reservationProviderId === null
                ? {}
                : { reservationProviderId: event.reservationProviderId }),
              ...(event.traceContext === undefined ? {} : { traceContext: event.traceContext }),
            } as DeliverableEvent)
          : undefined,
    };
  }
  const named = JOB_ID.exec(jobId ?? '');
  return named ? { deliveryId: named[1]!, generation: Number(named[2]) } : null;
}

export interface DeliveryQueueOptions {
  connection: RedisClient;
  /** Redis key prefix; tests give every file its own. */
  prefix: string;
  /** Deliveries enqueued per round. */
  batchSize?: number;
  /**
   * A pending delivery whose job already exists but whose attempt is this much overdue is
   * checked against Redis, and enqueued again when its job is gone (e.g. the job ran out of
   * BullMQ attempts while PostgreSQL was down).
   */
  overdueAfterMs?: number;
  /** Jobs checked against Redis per round of `requeueLost`. */
  requeuePageSize?: number;
}

/**
 * Jobs fail over to BullMQ's own retries only when the processor throws (the database was
 * unreachable); the delivery schedule itself is kept in PostgreSQL and applied with
 * `moveToDelayed`. Completed jobs are removed: PostgreSQL keeps the record.
 */
const JOB_OPTIONS: JobsOptions = {
  attempts: 10,
  backoff: { type: 'exponential', delay: 1_000 },
  removeOnComplete: true,
  removeOnFail: { age: 7 * 24 * 3600 },
};

/**
 * The producer side of the BullMQ queue. The store is the truth: a delivery generation is
 * enqueued while it is not marked queued, and it is marked only after Redis accepted the
 * job, so a crash or a Redis outage in between means enqueuing again (the job id makes
 * that harmless), never losing the delivery.
 */
export class DeliveryQueue {
  readonly queue: Queue<DeliveryJobData>;
  readonly batchSize: number;
  private readonly overdueAfterMs: number;
  private readonly requeuePageSize: number;
  private readonly sentinelKey: string;
  private readonly connection: RedisClient;

  constructor(
    private readonly candidates: EnqueueCandidates,
    options: DeliveryQueueOptions,
  ) {
    this.queue = new Queue<DeliveryJobData>(DELIVERY_QUEUE, {
      connection: options.connection,
      prefix: options.prefix,
      defaultJobOptions: JOB_OPTIONS,
    });
    // Errors surface through the calls that fail; the relay logs those.
    this.queue.on('error', () => undefined);
    this.batchSize = options.batchSize ?? 500;
    this.overdueAfterMs = options.overdueAfterMs ?? 60_000;
    this.requeuePageSize = options.requeuePageSize ?? 1_000;
    this.sentinelKey = `${options.prefix}:${DELIVERY_QUEUE}:pis-sentinel`;
    this.connection = options.connection;
  }

  /**
   * Whether Redis has lost its data since this was last asked (it was restarted empty, or
   * this is the first look): a key of ours that only the producer writes is gone. Sets it
   * again. The first answer of a new process is true, which resynchronises at start.
   */
  async redisWasReset(): Promise<boolean> {
    const set = await this.connection.set(this.sentinelKey, String(Date.now()), 'NX');
    return set === 'OK';
  }

  /**
   * Enqueues pending deliveries whose generation has no job yet; answers how many. A job
   * waits until its delivery is due.
   */
  async enqueueNew(): Promise<number> {
    const due = await this.candidates.unqueued(this.batchSize);
    if (due.length === 0) return 0;
    const priorities = fairPriorities(due);
    await this.queue.addBulk(
      due.map(({ deliveryId, generation, endpointId, delayMs }, i) => ({
        name: 'deliver',
        data: { deliveryId, generation, endpointId },
        opts: { jobId: deliveryJobId(deliveryId, generation), delay: delayMs, priority: priorities[i] },
      })),
    );
    await this.candidates.markQueued(due);
    return due.length;
  }

  /**
   * Hands the relay's new deliveries to Redis, each job carrying its event. The relay marked
   * them queued as it inserted them; when Redis refuses them they are marked unqueued again,
   * so the enqueuer's next round adds them (the store stays the truth).
   */
  async handOff(deliveries: readonly RelayedDelivery[]): Promise<void> {
    const priorities = fairPriorities(deliveries);
    // A relay batch of 500 events wanted by 100 endpoints each is 50,000 jobs: added in
    // slices, so the worker never holds more than one slice's jobs, scripts and buffers at
    // once (one addBulk of 10,000 held about 60 MiB). Ranked over the whole batch first.
    for (let from = 0; from < deliveries.length; from += HAND_OFF_SLICE) {
      const slice = deliveries.slice(from, from + HAND_OFF_SLICE);
      try {
        await this.addCarried(slice, priorities.slice(from, from + HAND_OFF_SLICE));
      } catch (error) {
        // The slices before were accepted; this one and the rest go to the enqueuer.
        await this.candidates.markUnqueued(deliveries.slice(from));
        throw error;
      }
    }
  }

  private async addCarried(deliveries: readonly RelayedDelivery[], priorities: number[]): Promise<void> {
    await this.queue.addBulk(
      deliveries.map(({ deliveryId, generation, endpointId, locationId, event }, i) => ({
        name: 'deliver',
        data: {
          deliveryId,
          generation,
          endpointId,
          locationId,
          event: {
            id: event.id,
            sequence: event.sequence,
            type: event.type,
            occurredAtMicros: event.occurredAt.epochMicros.toString(),
            data: event.data,
            reservationProviderId: event.reservationProviderId ?? null,
            ...(event.sequence === null ? { providerId: event.providerId } : {}),
            ...(event.traceContext === undefined ? {} : { traceContext: event.traceContext }),
          },
        },
        opts: { jobId: deliveryJobId(deliveryId, generation), priority: priorities[i] },
      })),
    );
  }

  /**
   * The safety net: pending generations marked queued whose job Redis no longer holds (or
   * holds as completed or failed) are enqueued again, page after page until none is left,
   * each page checked against Redis at once. `overdueAfterMs`: only deliveries that much past
   * their due time (the periodic check); null: every one (after Redis lost its data). Jobs
   * waiting, delayed or active are left alone; a dead worker's active job comes back through
   * BullMQ's stalled-job check. Answers how many were enqueued again.
   */
  async requeueLost(overdueAfterMs: number | null = this.overdueAfterMs): Promise<number> {
    let requeued = 0;
    let after: string | null = null;
    for (;;) {
      const page = await this.candidates.overdueQueued(overdueAfterMs, this.requeuePageSize, after);
      if (page.length === 0) return requeued;
      const jobIds = page.map((j) => deliveryJobId(j.deliveryId, j.generation));
      const states = await Promise.all(jobIds.map((id) => this.queue.getJobState(id)));
      const lost = page.filter((_, i) => LOST_STATES.has(states[i]!));
      const finished = jobIds.filter((_, i) => states[i] === 'completed' || states[i] === 'failed');
      await Promise.all(finished.map((id) => this.queue.remove(id)));
      if (lost.length > 0) {
        // An attempt that ended after the loss may have written part of its job back (a hash
        // in no state): BullMQ would take it for the job and add nothing. Gone first.
        await Promise.all(
          jobIds.filter((_, i) => LOST_STATES.has(states[i]!)).map((id) => this.queue.remove(id)),
        );
        const priorities = fairPriorities(lost);
        await this.queue.addBulk(
          lost.map(({ deliveryId, generation, endpointId }, i) => ({
            name: 'deliver',
            data: { deliveryId, generation, endpointId },
            opts: { jobId: deliveryJobId(deliveryId, generation), priority: priorities[i] },
          })),
        );
      }
      requeued += lost.length;
      if (page.length < this.requeuePageSize) return requeued;
      after = page[page.length - 1]!.position;
    }
  }

  async close(): Promise<void> {
    await this.queue.close();
  }
}
