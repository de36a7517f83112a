import type { Logger } from 'pino';
import { createRedis, slotPrefix, type RedisClient, type RedisTarget } from '../redis/redis-client';
import { RedisLiveness } from '../redis/redis-liveness';
import { settlesWithin } from '../support/settles-within';
import { DeliveryRuntime } from '../delivery/delivery-runtime';
import { deliveryStack, type DeliveryDeps, type DeliveryStack } from '../delivery/delivery-stack';
import type { SlotUsage } from '../delivery/endpoint-slots';
import { WakeableLoop } from '../support/wakeable-loop';
import { BullMqScheduler, type BullMqJob } from './bullmq-scheduler';
import { DeliveryQueue } from './delivery-queue';

export interface QueuedDeliveryOptions extends DeliveryDeps {
  /** The Redis or Redis Cluster of the queue. */
  redis: RedisTarget;
  /** Redis key prefix of the queue (on a cluster, made a hash tag: `{prefix}`). */
  prefix: string;
  /** Attempts in flight at once in this process. */
  concurrency: number;
  /** Poll fallback of the relay and of the enqueuer. */
  pollMs?: number;
  /** How long `stop()` waits for attempts in flight. */
  closeTimeoutMs?: number;
  /** Queued deliveries `requeueLost` checks against Redis per page (1,000 by default). */
  requeuePageSize?: number;
}

/**
 * The worker deployment: the delivery engine over BullMQ, with the outbox relay (woken by
 * commit signals) and the enqueuer that turns delivery generations the store has and Redis
 * does not into jobs (and puts back jobs Redis lost). The relay needs only the store, so
 * events keep turning into deliveries while Redis is away; the enqueuer catches up when it
 * is back.
 */
export class QueuedDelivery {
  readonly stack: DeliveryStack;
  readonly queue: DeliveryQueue;
  private readonly runtime: DeliveryRuntime<BullMqJob>;
  private readonly enqueuer: WakeableLoop;
  private readonly logger: Logger;
  private readonly producerRedis: RedisClient;
  private readonly workerRedis: RedisClient;
  private readonly liveness: RedisLiveness[];
  private readonly lostCheckEveryMs: number;
  private lastLostCheck = 0;

  constructor(options: QueuedDeliveryOptions) {
    const logger: Logger = options.logger;
    this.logger = logger;
    this.stack = deliveryStack(options);
    const pollMs = options.pollMs ?? 500;
    // The producer fails fast while Redis is down (the enqueuer retries); the worker waits.
    this.producerRedis = createRedis(
      options.redis,
      { maxRetriesPerRequest: 1, enableOfflineQueue: false, enableAutoPipelining: true },
      'queue-producer',
    );
    this.workerRedis = createRedis(
      options.redis,
      { maxRetriesPerRequest: null, enableAutoPipelining: true },
      'queue-worker',
    );
    for (const redis of [this.producerRedis, this.workerRedis]) redis.on('error', () => undefined);
    // Every key of the queue in one slot of a cluster: BullMQ's scripts take several at once.
    const prefix = slotPrefix(options.redis, options.prefix);
    // A connection left unanswering by a failover is reset (decision 0191).
    this.liveness = [
      [this.producerRedis, 'queue-producer'] as const,
      [this.workerRedis, 'queue-worker'] as const,
    ].map(([redis, client]) => new RedisLiveness(redis, { key: `${prefix}:liveness`, logger, client }));
    const overdueAfterMs = 2 * this.stack.leaseMs;
    this.lostCheckEveryMs = overdueAfterMs / 2;
    this.queue = new DeliveryQueue(options.store.candidates, {
      connection: this.producerRedis,
      prefix,
      overdueAfterMs,
      requeuePageSize: options.requeuePageSize,
    });
    const scheduler = new BullMqScheduler(this.queue, {
      connection: this.workerRedis,
      prefix,
      concurrency: options.concurrency,
      leaseMs: this.stack.leaseMs,
      timeoutMs: this.stack.timeoutMs,
      logger,
    });
    this.enqueuer = new WakeableLoop(() => this.enqueue(), {
      idleMs: pollMs,
      errorBackoffMs: 1_000,
      logger,
      name: 'webhook-enqueuer',
    });
    this.runtime = new DeliveryRuntime({
      store: options.store,
      stack: this.stack,
      scheduler,
      concurrency: options.concurrency,
      pollMs,
      closeTimeoutMs: options.closeTimeoutMs,
      logger,
    });
  }

  async start(): Promise<void> {
    // The producer queues no command while it connects: its first round waits for the
    // connection (for a while; a Redis still down then is the enqueuer's to retry and log).
    await readyWithin(this.producerRedis, 10_000);
    await this.runtime.start();
    this.enqueuer.start();
    for (const probe of this.liveness) probe.start();
  }

  wake(): void {
    this.runtime.wake();
  }

  /** The worker's slots at a glance (its `/metrics`). */
  slotUsage(): SlotUsage {
    return this.runtime.slotUsage();
  }

  /** Stops relaying and enqueuing, lets the engine finish what it holds (up to its close timeout). */
  async stop(): Promise<void> {
    for (const probe of this.liveness) probe.stop();
    await this.enqueuer.stop();
    await this.runtime.stop();
    await this.queue.close();
    // QUIT waits behind whatever the connection still has unanswered: it is not waited for long.
    await Promise.all(
      [this.producerRedis, this.workerRedis].map(async (r) => {
        if (!(await settlesWithin(r.quit(), 2_000))) r.disconnect();
      }),
    );
  }

  /**
   * One round of the enqueuer: after Redis lost its data (or at start), every queued
   * delivery is checked against Redis at once; otherwise only overdue ones, once per lease.
   */
  private async enqueue(): Promise<boolean> {
    const reset = await this.queue.redisWasReset();
    if (reset || Date.now() - this.lastLostCheck >= this.lostCheckEveryMs) {
      const requeued = await this.queue.requeueLost(reset ? null : undefined);
      if (requeued > 0) {
        this.logger.warn({ requeued, redisWasReset: reset }, 'webhook jobs lost by Redis enqueued again');
      }
      this.lastLostCheck = Date.now();
    }
    const enqueued = await this.queue.enqueueNew();
    return enqueued === this.queue.batchSize;
  }
}

/** Resolves once `redis` is connected, or after `ms` (whatever its state then). */
async function readyWithin(redis: RedisClient, ms: number): Promise<void> {
  if (redis.status === 'ready') return;
  await new Promise<void>((resolve) => {
    const timer = setTimeout(done, ms);
    redis.once('ready', done);
    function done() {
      clearTimeout(timer);
      redis.off('ready', done);
      resolve();
    }
  });
}
