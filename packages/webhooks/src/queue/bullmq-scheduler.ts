import type { RelayedDelivery, RelayHandOff } from '@pis/ports';
import { DelayedError, Job, Worker } from 'bullmq';
import type { RedisClient } from '../redis/redis-client';
import type { Logger } from 'pino';
import type { DelayReason, DeliveryScheduler, ScheduledJob } from '../delivery/scheduler';
import { settlesWithin } from '../support/settles-within';
import { DELIVERY_QUEUE, deliveryOfJob, type DeliveryJobData, type DeliveryQueue } from './delivery-queue';

export interface BullMqSchedulerOptions {
  /** The worker's connection (blocking commands; it waits for Redis rather than fail). */
  connection: RedisClient;
  prefix: string;
  /** Jobs held at once: the engine's slots. */
  concurrency: number;
  /** A claimed delivery's lease; a job's lock lasts half of it without renewal, so a dead worker's jobs come back after it. */
  leaseMs: number;
  /** The attempt timeout: a job younger than this on its first run attempts under the lease the relay took. */
  timeoutMs: number;
  logger: Logger;
}

/** A job as BullMQ handed it to this process, with how to settle its processor. */
export interface BullMqJob extends ScheduledJob {
  readonly job: Job<DeliveryJobData>;
  readonly token: string | undefined;
  settle(outcome: { ok: true } | { ok: false; error: unknown }): void;
}

/**
 * The worker deployment's scheduler: BullMQ on Redis. A job stands for one delivery
 * generation; delaying it moves it to the delayed set (`moveToDelayed`), so retries and
 * parked jobs are the same job delayed, not BullMQ attempts. BullMQ's own retries (10,
 * exponential from 1 s) only cover an attempt that could not be completed (PostgreSQL
 * away). The worker's processor hands each job to `receive` and stays open until the engine
 * settles the job, so BullMQ keeps its lock and counts it against its concurrency meanwhile.
 */
export class BullMqScheduler implements DeliveryScheduler<BullMqJob> {
  readonly handOff: RelayHandOff;
  readonly worker: Worker<DeliveryJobData>;
  private readonly connection: RedisClient;
  private readonly logger: Logger;
  private readonly arrived: BullMqJob[] = [];
  private notify: (() => void) | null = null;
  private receiving = true;
  private closing: Promise<void> | null = null;
  private lastErrorLoggedAt = 0;
  private errorsNotLogged = 0;
  private readonly timeoutMs: number;

  constructor(
    readonly queue: DeliveryQueue,
    options: BullMqSchedulerOptions,
  ) {
    this.connection = options.connection;
    this.logger = options.logger;
    this.handOff = { leaseMs: options.leaseMs };
    this.timeoutMs = options.timeoutMs;
    // A dead worker's job is handed out again after its lock expired and two stalled checks
    // saw it (BullMQ): lock + 2 checks = one lease, when the delivery's own lease ends too.
    const lockDuration = Math.max(2_000, Math.round(options.leaseMs / 2));
    const stalledInterval = Math.max(1_000, Math.round(options.leaseMs / 4));
    this.worker = new Worker<DeliveryJobData>(DELIVERY_QUEUE, (job, token) => this.arrive(job, token), {
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

  enqueue(deliveries: readonly RelayedDelivery[]): Promise<void> {
    return this.queue.handOff(deliveries);
  }

  start(): void {
    void this.worker.run().catch((err) => this.logger.error({ err }, 'webhook worker stopped'));
  }

  async receive(max: number): Promise<BullMqJob[]> {
    while (this.arrived.length === 0) {
      if (!this.receiving) return [];
      await new Promise<void>((resolve) => (this.notify = resolve));
    }
    return this.arrived.splice(0, max);
  }

  async delay(job: BullMqJob, at: number, _reason: DelayReason): Promise<void> {
    await job.job.moveToDelayed(at, job.token);
    job.settle({ ok: false, error: new DelayedError() });
  }

  async complete(job: BullMqJob): Promise<void> {
    job.settle({ ok: true });
  }

  async abandon(job: BullMqJob, error: unknown): Promise<void> {
    job.settle({ ok: false, error });
  }

  /** Calling back needs the parked job's id only. */
  callBackOf(parked: BullMqJob): () => Promise<boolean> {
    const { id } = parked;
    return () => this.callBack(id);
  }

  /** Promotes the parked job to the end of the queue; it may have come back already, or be gone. */
  callBack(jobId: string): Promise<boolean> {
    return new Job<DeliveryJobData>(this.worker, 'deliver', {} as DeliveryJobData, {}, jobId).promote().then(
      () => true,
      () => false,
    );
  }

  wake(): void {
    // Redis tells the worker of every job that becomes due.
  }

  /**
   * Stops taking jobs. While Redis is unreachable a graceful close would wait on it, and the
   * blocking connection BullMQ made for itself would keep reconnecting after we gave up on
   * it: closing by force drops that connection at once. Jobs received and not handed to the
   * engine go back to the queue as they are.
   */
  async stopReceiving(): Promise<void> {
    this.receiving = false;
    this.closing ??= this.worker.close(this.connection.status !== 'ready');
    for (const job of this.arrived.splice(0)) {
      await this.delay(job, Date.now(), 'not-due').catch((error) => job.settle({ ok: false, error }));
    }
    this.notify?.();
  }

  /** Returns even while Redis is unreachable: the worker is disconnected if it cannot close through it. */
  async close(): Promise<void> {
    await this.stopReceiving();
    if (await settlesWithin(this.closing!, 2_000)) return;
    this.logger.warn('the worker could not close through Redis; disconnecting it');
    await settlesWithin(this.worker.disconnect(), 2_000);
  }

  /** The processor: the job waits in `arrived` for the engine, which settles it. */
  private arrive(job: Job<DeliveryJobData>, token: string | undefined): Promise<string> {
    const delivery = deliveryOfJob(job.id, job.data);
    if (delivery === null) return Promise.resolve('not a delivery job');
    const { deliveryId, generation, endpointId, locationId, event } = delivery;
    const carried = event && endpointId && locationId ? { locationId, endpointId, event } : null;
    // The relay's job, none of whose runs stalled or failed: each ended as this process
    // settled it, so no attempt of it is under way elsewhere, and a relay's lease on a
    // delivery never attempted is its own.
    const ownsRelayLease = carried !== null && job.stalledCounter === 0 && job.attemptsMade === 0;
    // Its first run, within one timeout of the hand-off: the relay's lease (twice the timeout
    // and 5 s from the insert) outlasts an attempt begun now, so it needs no claim at all.
    const underRelayLease =
      ownsRelayLease && job.attemptsStarted === 1 && Date.now() - job.timestamp < this.timeoutMs;
    return new Promise<string>((resolve, reject) => {
      this.arrived.push({
        id: job.id!,
        deliveryId,
        generation,
        endpointId,
        claimed: underRelayLease ? { id: deliveryId, ...carried!, generation, attemptCount: 0 } : null,
        carried,
        ownsRelayLease,
        job,
        token,
        settle: (outcome) => (outcome.ok ? resolve('done') : reject(outcome.error)),
      });
      const notify = this.notify;
      this.notify = null;
      notify?.();
    });
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
}
