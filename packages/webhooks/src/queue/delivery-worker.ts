import type { DeliveryLeases } from '@pis/domain';
import { DelayedError, Job, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { DeliveryAttempts } from '../delivery/delivery-attempts';
import { EndpointSlots, type AttemptPace, type SlotUsage } from '../delivery/endpoint-slots';
import { settlesWithin } from '../support/settles-within';
import { DELIVERY_QUEUE, deliveryOfJob, type DeliveryJobData } from './delivery-queue';

export interface DeliveryWorkerOptions {
  connection: Redis;
  prefix: string;
  /** Attempts in flight at once. */
  concurrency: number;
  /** How long a claimed delivery is held (the lease), and a job's lock without renewal: a dead worker's jobs come back after it. */
  leaseMs: number;
  /** How long `close()` waits for attempts in flight before it lets go of them. */
  closeTimeoutMs?: number;
  /** The attempt timeout: a slot of a capped endpoint frees within it. */
  timeoutMs: number;
  /** An attempt running longer than this marks its endpoint as struggling. */
  slowAfterMs: number;
}

/** A parked job comes back by itself within this many leases, if it is not called back first. */
const PARKED_AT_MOST_LEASES = 3;

/** A delayed job re-checks PostgreSQL at least this soon after it wakes too early. */
const MIN_DELAY_MS = 50;

/**
 * The BullMQ consumer. Each job stands for one delivery generation; the processor claims
 * the delivery in PostgreSQL (a lease), makes one attempt, records it, and when a retry
 * follows moves the same job to the delayed set until the retry is due. A job that finds
 * nothing to do (delivered, failed, superseded by a redelivery, or gone) completes.
 */
export class DeliveryWorker {
  readonly worker: Worker<DeliveryJobData>;
  private readonly closeTimeoutMs: number;
  private readonly connection: Redis;
  private readonly leaseMs: number;
  private readonly timeoutMs: number;
  private readonly slots: EndpointSlots;
  /** Jobs being processed, so closing knows when the attempts in flight are done. */
  private readonly inFlight = new Set<Promise<void>>();
  private lastErrorLoggedAt = 0;
  private errorsNotLogged = 0;

  constructor(
    private readonly leases: DeliveryLeases,
    private readonly attempts: DeliveryAttempts,
    private readonly logger: Logger,
    options: DeliveryWorkerOptions,
  ) {
    this.closeTimeoutMs = options.closeTimeoutMs ?? 15_000;
    this.connection = options.connection;
    this.leaseMs = options.leaseMs;
    this.timeoutMs = options.timeoutMs;
    this.slots = new EndpointSlots({ concurrency: options.concurrency, slowAfterMs: options.slowAfterMs });
    // A dead worker's job is handed out again after its lock expired and two stalled checks
    // saw it (BullMQ): lock + 2 checks = one lease, when the delivery's own lease ends too.
    const lockDuration = Math.max(2_000, Math.round(options.leaseMs / 2));
    const stalledInterval = Math.max(1_000, Math.round(options.leaseMs / 4));
    this.worker = new Worker<DeliveryJobData>(DELIVERY_QUEUE, (job, token) => this.process(job, token), {
      connection: options.connection,
      prefix: options.prefix,
      concurrency: options.concurrency,
      autorun: false,
      lockDuration,
      stalledInterval,
      // A job whose worker died is handed out again; the lease in PostgreSQL keeps a
      // still-living slow worker and the next one from attempting at the same time.
      maxStalledCount: 10,
    });
    this.worker.on('error', (err) => this.logError(err));
    this.worker.on('failed', (job, err) =>
      this.logger.warn({ jobId: job?.id, attemptsMade: job?.attemptsMade, err }, 'webhook job failed'),
    );
  }

  start(): void {
    void this.worker.run().catch((err) => this.logger.error({ err }, 'webhook worker stopped'));
  }

  /**
   * Stops taking jobs and waits for the attempts in flight, up to the close timeout; after
   * it, the worker lets go: jobs it still holds are handed out again by the stalled-job
   * check, and their deliveries become due again when their lease ends. Nothing is lost.
   * Returns even while Redis is unreachable.
   */
  async close(): Promise<void> {
    // While Redis is unreachable a graceful close would wait on it, and the blocking
    // connection BullMQ made for itself would keep reconnecting after we gave up on it:
    // closing by force drops that connection at once. The attempts in flight are still
    // waited for below, by our own count.
    const closing = this.worker.close(this.connection.status !== 'ready');
    if (!(await settlesWithin(Promise.allSettled([...this.inFlight]), this.closeTimeoutMs))) {
      this.logger.warn(
        { timeoutMs: this.closeTimeoutMs },
        'attempts still in flight; closing the worker anyway',
      );
    }
    if (await settlesWithin(closing, 2_000)) return;
    // Closing waits for Redis; while Redis is unreachable it would never return.
    this.logger.warn('the worker could not close through Redis; disconnecting it');
    await settlesWithin(this.worker.disconnect(), 2_000);
  }

  /** This process's slots: attempts in flight, struggling endpoints, parked jobs. */
  slotUsage(): SlotUsage {
    return this.slots.usage();
  }

  /** While Redis is away every reconnection fails: one line per 30 s says so, with a count. */
  private logError(err: Error): void {
    if (Date.now() - this.lastErrorLoggedAt < 30_000) {
      this.errorsNotLogged += 1;
      return;
    }
    this.logger.error({ err, errorsSinceLastLine: this.errorsNotLogged }, 'webhook worker error');
    this.lastErrorLoggedAt = Date.now();
    this.errorsNotLogged = 0;
  }

  private process(job: Job<DeliveryJobData>, token?: string): Promise<string> {
    const processing = this.handle(job, token);
    const tracked = processing.then(
      () => undefined,
      () => undefined,
    );
    this.inFlight.add(tracked);
    void tracked.then(() => this.inFlight.delete(tracked));
    return processing;
  }

  private async handle(job: Job<DeliveryJobData>, token?: string): Promise<string> {
    const delivery = deliveryOfJob(job.id, job.data);
    if (delivery === null) return 'not a delivery job';
    const { deliveryId, generation, endpointId } = delivery;
    const takenAt = Date.now();
    if (endpointId !== undefined) {
      const called = this.slots.arrived(endpointId, job.id!);
      if (!this.slots.tryTake(endpointId, takenAt, called)) return this.park(job, token, endpointId, takenAt);
    }
    let pace: AttemptPace | undefined;
    try {
      const claim = await this.leases.claimById(deliveryId, generation, this.leaseMs);
      if (claim.kind === 'nothing-to-do') return claim.why;
      if (claim.kind === 'not-due') return this.later(job, token, claim.dueAt.epochMillis());
      const attempted = await this.attempts.run(claim.delivery);
      pace = attempted.pace;
      if (attempted.decision.kind !== 'retry') return 'attempted';
      return this.later(job, token, Date.now() + attempted.decision.delayMs);
    } finally {
      if (endpointId !== undefined) this.slots.release(endpointId, takenAt, pace);
    }
  }

  /**
   * The endpoint holds its share of this process's slots: the job waits in the delayed set
   * without claiming its delivery, until a slot of its endpoint frees here and calls it back
   * (promoted to the end of the queue), or by itself after its turn, at most three leases
   * (the bound of a job lost otherwise, decision 0050): a job parked by a process that died
   * is back within that, and a long line of a hanging endpoint does not cycle through the
   * queue once a lease.
   */
  private async park(
    job: Job<DeliveryJobData>,
    token: string | undefined,
    endpointId: string,
    now: number,
  ): Promise<never> {
    // The line may hold thousands of jobs: a waiter keeps the job's id, not the job.
    const jobId = job.id!;
    let delayed: Promise<void> = Promise.resolve();
    const wake = async (): Promise<boolean> => {
      await delayed.catch(() => undefined);
      return new Job<DeliveryJobData>(this.worker, 'deliver', {} as DeliveryJobData, {}, jobId)
        .promote()
        .then(
          () => true,
          () => false,
        );
    };
    const waitMs = this.slots.park(
      endpointId,
      jobId,
      wake,
      this.timeoutMs,
      PARKED_AT_MOST_LEASES * this.leaseMs,
      now,
    );
    delayed = job.moveToDelayed(Math.max(now + waitMs, Date.now() + MIN_DELAY_MS), token);
    await delayed;
    throw new DelayedError();
  }

  /** Moves the job to the delayed set until `at` (at least a moment from now). */
  private async later(job: Job<DeliveryJobData>, token: string | undefined, at: number): Promise<never> {
    await job.moveToDelayed(Math.max(at, Date.now() + MIN_DELAY_MS), token);
    throw new DelayedError();
  }
}
