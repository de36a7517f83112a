import type { ClaimById, DeliveryLeases } from '@pis/ports';
import type { Logger } from 'pino';
import { settlesWithin } from '../support/settles-within';
import type { DeliveryStack } from './delivery-stack';
import { EndpointSlots, type AttemptPace, type SlotUsage } from './endpoint-slots';
import type { DeliveryScheduler, ScheduledJob } from './scheduler';

export interface DeliveryEngineOptions {
  /** Attempts in flight at once in this process (its slots). */
  concurrency: number;
  /** How long `stop()` waits for attempts in flight before it lets go of them. */
  closeTimeoutMs?: number;
  logger: Logger;
}

/** A parked job comes back by itself within this many leases, if it is not called back first. */
const PARKED_AT_MOST_LEASES = 3;

/** A delayed job re-checks its delivery at least this soon after it comes back too early. */
const MIN_DELAY_MS = 50;

/** Pause after a `receive` that failed (the scheduler's store or Redis away). */
const RECEIVE_BACKOFF_MS = 1_000;

/**
 * The one worker loop, whatever the scheduler: receives as many jobs as it has free slots,
 * and for each job takes a slot of its endpoint (or parks the job until one frees), leases
 * its delivery, makes the attempt, records it, and hands the job back to the scheduler:
 * completed, or delayed until its retry. The slots, the metrics and shutdown are the same in
 * every deployment.
 */
export class DeliveryEngine<J extends ScheduledJob> {
  private readonly slots: EndpointSlots;
  private readonly inFlight = new Set<Promise<void>>();
  private readonly closeTimeoutMs: number;
  private readonly logger: Logger;
  private running: Promise<void> | null = null;
  private stopping = false;
  private slotFreed: (() => void) | null = null;
  private lastErrorLoggedAt = 0;

  constructor(
    private readonly scheduler: DeliveryScheduler<J>,
    private readonly stack: DeliveryStack,
    private readonly leases: DeliveryLeases,
    private readonly options: DeliveryEngineOptions,
  ) {
    this.slots = new EndpointSlots({ concurrency: options.concurrency, slowAfterMs: stack.slowAfterMs });
    this.closeTimeoutMs = options.closeTimeoutMs ?? 15_000;
    this.logger = options.logger;
  }

  start(): void {
    if (this.running) return;
    this.stopping = false;
    this.scheduler.start();
    this.running = this.run();
  }

  /** The slots at a glance (`/metrics`): attempts in flight, struggling endpoints, parked jobs. */
  slotUsage(): SlotUsage {
    return this.slots.usage();
  }

  /**
   * Stops receiving, waits for the attempts in flight up to the close timeout, then lets the
   * scheduler go: what it still holds comes back by its own means (BullMQ's stalled-job
   * check, the lease's end). Nothing is lost.
   */
  async stop(): Promise<void> {
    this.stopping = true;
    this.slotFreed?.();
    await this.scheduler.stopReceiving();
    await this.running;
    this.running = null;
    if (!(await settlesWithin(Promise.allSettled([...this.inFlight]), this.closeTimeoutMs))) {
      this.logger.warn({ timeoutMs: this.closeTimeoutMs }, 'attempts still in flight; stopping anyway');
    }
    await this.scheduler.close();
    this.stack.sender.close();
  }

  private async run(): Promise<void> {
    while (!this.stopping) {
      const free = this.options.concurrency - this.inFlight.size;
      if (free <= 0) {
        await new Promise<void>((resolve) => (this.slotFreed = resolve));
        continue;
      }
      let jobs: J[];
      try {
        jobs = await this.scheduler.receive(free, () => this.slots.room());
      } catch (err) {
        this.logOnce(err, 'webhook jobs could not be received');
        await new Promise((resolve) => setTimeout(resolve, RECEIVE_BACKOFF_MS));
        continue;
      }
      for (const job of jobs) this.track(job);
    }
  }

  private track(job: J): void {
    const handled = this.handle(job).catch((err) => {
      // The job comes back by the scheduler's means (BullMQ's retries, the lease's end): at least once.
      this.logger.error({ err, jobId: job.id }, 'webhook attempt could not be completed');
      return this.scheduler.abandon(job, err).catch(() => undefined);
    });
    this.inFlight.add(handled);
    void handled.then(() => {
      this.inFlight.delete(handled);
      const freed = this.slotFreed;
      this.slotFreed = null;
      freed?.();
    });
  }

  private async handle(job: J): Promise<void> {
    const { endpointId } = job;
    const takenAt = Date.now();
    if (endpointId !== undefined) {
      const called = this.slots.arrived(endpointId, job.id);
      if (!this.slots.tryTake(endpointId, takenAt, called)) return this.park(job, endpointId, takenAt);
    }
    let pace: AttemptPace | undefined;
    try {
      const claim: ClaimById = job.claimed
        ? { kind: 'claimed', delivery: job.claimed }
        : await this.leases.claimById(
            job.deliveryId,
            job.generation,
            this.stack.leaseMs,
            job.carried ?? undefined,
            job.ownsRelayLease,
          );
      if (claim.kind === 'nothing-to-do') return await this.scheduler.complete(job);
      if (claim.kind === 'not-due') return await this.later(job, claim.dueAt.epochMillis(), 'not-due');
      const attempted = await this.stack.attempts.run(claim.delivery);
      pace = attempted.pace;
      if (attempted.decision.kind !== 'retry') return await this.scheduler.complete(job);
      await this.later(job, Date.now() + attempted.decision.delayMs, 'retry');
    } finally {
      if (endpointId !== undefined) this.slots.release(endpointId, takenAt, pace);
      // A slot of the endpoint is free (a retry's due time is found by the scheduler's own poll).
      this.scheduler.wake(endpointId);
    }
  }

  /**
   * The endpoint holds its share of this process's slots: the job waits in the scheduler
   * without an attempt, until a slot of its endpoint frees here and calls it back, or by
   * itself after its turn, at most three leases (the bound of a job lost otherwise, decision
   * 0050): a job parked by a process that died is back within that, and a long line of a
   * hanging endpoint does not cycle through the scheduler once a lease.
   */
  private async park(job: J, endpointId: string, now: number): Promise<void> {
    let parked: Promise<void> = Promise.resolve();
    // The waiting line keeps this, not the job (a long line would hold every job's event).
    const callBackNow = this.scheduler.callBackOf(job);
    const callBack = async (): Promise<boolean> => {
      await parked.catch(() => undefined);
      return callBackNow().catch(() => false);
    };
    const waitMs = this.slots.park(
      endpointId,
      job.id,
      callBack,
      this.stack.timeoutMs,
      PARKED_AT_MOST_LEASES * this.stack.leaseMs,
      now,
    );
    parked = this.later(job, now + waitMs, 'parked');
    await parked;
  }

  /** Delays the job until `at` (at least a moment from now). */
  private later(job: J, at: number, reason: 'not-due' | 'retry' | 'parked'): Promise<void> {
    return this.scheduler.delay(job, Math.max(at, Date.now() + MIN_DELAY_MS), reason);
  }

  /** While the scheduler is unreachable every round fails: one line per 30 s says so. */
  private logOnce(err: unknown, message: string): void {
    if (Date.now() - this.lastErrorLoggedAt < 30_000) return;
    this.lastErrorLoggedAt = Date.now();
    this.logger.error({ err }, message);
  }
}
