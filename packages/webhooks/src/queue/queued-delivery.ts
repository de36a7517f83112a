import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { deliveryStack, type DeliveryDeps, type DeliveryStack } from '../delivery/delivery-stack';
import { relayLoop } from '../relay/relay-loop';
import { WakeableLoop } from '../support/wakeable-loop';
import { DeliveryQueue } from './delivery-queue';
import type { SlotUsage } from '../delivery/endpoint-slots';
import { DeliveryWorker } from './delivery-worker';

export interface QueuedDeliveryOptions extends DeliveryDeps {
  redisUrl: string;
  /** Redis key prefix of the queue. */
  prefix: string;
  /** Attempts in flight at once in this process. */
  concurrency: number;
  /** Poll fallback of the relay and of the enqueuer. */
  pollMs?: number;
  /** How long `stop()` waits for attempts in flight. */
  closeTimeoutMs?: number;
}

/**
 * The worker deployment: the outbox relay (woken by commit signals), the enqueuer that
 * turns new delivery generations into BullMQ jobs (and puts back jobs Redis lost), and the
 * BullMQ worker that attempts them. The relay needs only the store, so events keep turning
 * into deliveries while Redis is away; the enqueuer catches up when it is back.
 */
export class QueuedDelivery {
  readonly stack: DeliveryStack;
  readonly queue: DeliveryQueue;
  private readonly worker: DeliveryWorker;
  private readonly relay: WakeableLoop;
  private readonly enqueuer: WakeableLoop;
  private readonly options: QueuedDeliveryOptions;
  private readonly logger: Logger;
  private unsubscribe: (() => Promise<void>) | null = null;
  private readonly producerRedis: Redis;
  private readonly workerRedis: Redis;
  private readonly lostCheckEveryMs: number;
  private lastLostCheck = 0;

  constructor(options: QueuedDeliveryOptions) {
    this.options = options;
    const logger: Logger = options.logger;
    this.logger = logger;
    this.stack = deliveryStack(options);
    const pollMs = options.pollMs ?? 500;
    // The producer fails fast while Redis is down (the enqueuer retries); the worker waits.
    this.producerRedis = new Redis(options.redisUrl, { maxRetriesPerRequest: 1, enableOfflineQueue: false });
    this.workerRedis = new Redis(options.redisUrl, { maxRetriesPerRequest: null });
    for (const redis of [this.producerRedis, this.workerRedis]) redis.on('error', () => undefined);
    const overdueAfterMs = 2 * this.stack.leaseMs;
    this.lostCheckEveryMs = overdueAfterMs / 2;
    this.queue = new DeliveryQueue(options.store.candidates, {
      connection: this.producerRedis,
      prefix: options.prefix,
      overdueAfterMs,
    });
    this.worker = new DeliveryWorker(options.store.leases, this.stack.attempts, logger, {
      connection: this.workerRedis,
      prefix: options.prefix,
      concurrency: options.concurrency,
      leaseMs: this.stack.leaseMs,
      timeoutMs: this.stack.timeoutMs,
      slowAfterMs: this.stack.slowAfterMs,
      closeTimeoutMs: options.closeTimeoutMs,
    });
    this.enqueuer = new WakeableLoop(() => this.enqueue(), {
      idleMs: pollMs,
      errorBackoffMs: 1_000,
      logger,
      name: 'webhook-enqueuer',
    });
    this.relay = relayLoop(options.store.relay, {
      pollMs,
      logger,
      onDeliveries: () => this.enqueuer.wake(),
    });
  }

  async start(): Promise<void> {
    // The producer queues no command while it connects: its first round waits for the
    // connection (for a while; a Redis still down then is the enqueuer's to retry and log).
    await readyWithin(this.producerRedis, 10_000);
    this.unsubscribe = await this.options.store.signals.subscribe(() => this.relay.wake());
    this.relay.start();
    this.enqueuer.start();
    this.worker.start();
  }

  wake(): void {
    this.relay.wake();
  }

  /** The worker's slots at a glance (its `/metrics`). */
  slotUsage(): SlotUsage {
    return this.worker.slotUsage();
  }

  /** Stops relaying and enqueuing, lets the worker finish what it holds (up to its close timeout). */
  async stop(): Promise<void> {
    await this.unsubscribe?.();
    this.unsubscribe = null;
    await Promise.all([this.relay.stop(), this.enqueuer.stop()]);
    await this.worker.close();
    await this.queue.close();
    this.stack.sender.close();
    await Promise.all(
      [this.producerRedis, this.workerRedis].map((r) => r.quit().catch(() => r.disconnect())),
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
async function readyWithin(redis: Redis, ms: number): Promise<void> {
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
