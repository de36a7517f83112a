import { Queue, type JobsOptions } from 'bullmq';
import type { Redis } from 'ioredis';
import type { DataSource } from 'typeorm';
import { statement, transaction } from '../sql/sql';

export const DELIVERY_QUEUE = 'webhook-deliveries';

export interface DeliveryJobData {
  deliveryId: string;
  generation: number;
}

/** One job per delivery generation: enqueuing it twice (two relays, a retry) adds it once. */
export const deliveryJobId = (deliveryId: string, generation: number) => `${deliveryId}-${generation}`;

export interface DeliveryQueueOptions {
  connection: Redis;
  /** Redis key prefix; tests give every file its own. */
  prefix: string;
  /** Deliveries enqueued per round. */
  batchSize?: number;
  /**
   * A pending delivery whose job already exists but whose attempt is this much overdue is
   * checked against Redis, and enqueued again when its job is gone (Redis lost its data,
   * or the job ran out of BullMQ attempts while PostgreSQL was down).
   */
  overdueAfterMs?: number;
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
 * The producer side of the BullMQ queue. PostgreSQL is the truth: a delivery is enqueued
 * when its generation has no job yet (`queued_generation IS DISTINCT FROM generation`),
 * and `queued_generation` is set only after Redis accepted the job, so a crash or a Redis
 * outage in between means enqueuing again, never losing the delivery.
 */
export class DeliveryQueue {
  readonly queue: Queue<DeliveryJobData>;
  readonly batchSize: number;
  private readonly overdueAfterMs: number;

  constructor(
    private readonly db: DataSource,
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
  }

  /**
   * Enqueues pending deliveries whose generation has no job yet; answers how many. A new
   * generation (a redelivery) starts the retry schedule over: its attempt count is reset
   * before its job exists, so no attempt of it can be counted against the old schedule.
   */
  async enqueueNew(): Promise<number> {
    const due = await transaction(this.db, async (sql) => {
      const found = await sql.rows<{ id: string; generation: number; delay_ms: number }>(
        `SELECT id, generation,
                greatest(0, extract(epoch FROM (next_attempt_at - clock_timestamp())) * 1000)::float8 AS delay_ms
           FROM webhook_deliveries
          WHERE status = 'pending' AND queued_generation IS DISTINCT FROM generation
          ORDER BY next_attempt_at LIMIT $1
          FOR UPDATE SKIP LOCKED`,
        [this.batchSize],
      );
      if (found.length > 0) {
        await sql.rows(`UPDATE webhook_deliveries SET attempt_count = 0 WHERE id = ANY($1::uuid[])`, [
          found.map((d) => d.id),
        ]);
      }
      return found;
    });
    if (due.length === 0) return 0;
    await this.queue.addBulk(
      due.map((d) => ({
        name: 'deliver',
        data: { deliveryId: d.id, generation: Number(d.generation) },
        opts: { jobId: deliveryJobId(d.id, Number(d.generation)), delay: Math.round(Number(d.delay_ms)) },
      })),
    );
    await statement(
      this.db,
      `UPDATE webhook_deliveries d SET queued_generation = q.generation
         FROM unnest($1::uuid[], $2::int[]) AS q(id, generation)
        WHERE d.id = q.id AND d.generation = q.generation`,
      [due.map((d) => d.id), due.map((d) => Number(d.generation))],
    );
    return due.length;
  }

  /**
   * The safety net: pending deliveries well past their due time whose job Redis no longer
   * holds (or holds as finished) are enqueued again. Jobs waiting, delayed or active are
   * left alone; a dead worker's active job comes back through BullMQ's stalled-job check.
   */
  async requeueLost(limit = 200): Promise<number> {
    const overdue = await statement<{ id: string; generation: number }>(
      this.db,
      `SELECT id, generation FROM webhook_deliveries
        WHERE status = 'pending' AND queued_generation = generation
          AND next_attempt_at < clock_timestamp() - make_interval(secs => $1::float8 / 1000)
        ORDER BY next_attempt_at LIMIT $2`,
      [this.overdueAfterMs, limit],
    );
    let requeued = 0;
    for (const { id, generation } of overdue) {
      const jobId = deliveryJobId(id, Number(generation));
      const job = await this.queue.getJob(jobId);
      const state = job ? await job.getState() : 'unknown';
      if (state !== 'unknown' && state !== 'completed' && state !== 'failed') continue;
      if (job) await job.remove();
      await this.queue.add('deliver', { deliveryId: id, generation: Number(generation) }, { jobId });
      requeued += 1;
    }
    return requeued;
  }

  async close(): Promise<void> {
    await this.queue.close();
  }
}
