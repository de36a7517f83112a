import { DelayedError, Worker, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { DeliveryAttempts } from '../delivery/delivery-attempts';
import type { DeliveryRecords } from '../delivery/delivery-records';
import { settlesWithin } from '../shared/settles-within';
import { DELIVERY_QUEUE, type DeliveryJobData } from './delivery-queue';

export interface DeliveryWorkerOptions {
  connection: Redis;
  prefix: string;
  /** Attempts in flight at once. */
  concurrency: number;
  /** How long a job's lock lives without renewal; a dead worker's jobs come back after it. */
  lockDurationMs?: number;
  /** How long `close()` waits for attempts in flight before it lets go of them. */
  closeTimeoutMs?: number;
}

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
  /** Jobs being processed, so closing knows when the attempts in flight are done. */
  private readonly inFlight = new Set<Promise<void>>();
  private lastErrorLoggedAt = 0;
  private errorsNotLogged = 0;

  constructor(
    private readonly records: DeliveryRecords,
    private readonly attempts: DeliveryAttempts,
    private readonly logger: Logger,
    options: DeliveryWorkerOptions,
  ) {
    this.closeTimeoutMs = options.closeTimeoutMs ?? 15_000;
    const lockDuration = options.lockDurationMs ?? 30_000;
    this.worker = new Worker<DeliveryJobData>(DELIVERY_QUEUE, (job, token) => this.process(job, token), {
      connection: options.connection,
      prefix: options.prefix,
      concurrency: options.concurrency,
      autorun: false,
      lockDuration,
      stalledInterval: lockDuration,
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
    const closing = this.worker.close();
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
    const { deliveryId, generation } = job.data;
    const claim = await this.records.claimById(deliveryId, generation);
    if (claim.kind === 'nothing-to-do') return claim.why;
    const retryAt =
      claim.kind === 'not-due'
        ? claim.dueAt
        : await this.attempts
            .run(claim.delivery)
            .then((d) => (d.kind === 'retry' ? Date.now() + d.delayMs : null));
    if (retryAt === null) return 'attempted';
    await job.moveToDelayed(Math.max(retryAt, Date.now() + MIN_DELAY_MS), token);
    throw new DelayedError();
  }
}
