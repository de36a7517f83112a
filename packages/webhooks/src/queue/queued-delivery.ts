import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { deliveryStack, type DeliveryDeps, type DeliveryStack } from '../delivery/delivery-stack';
import { OutboxListener } from '../relay/outbox-listener';
import { OutboxRelay } from '../relay/outbox-relay';
import { relayLoop } from '../relay/relay-loop';
import { WakeableLoop } from '../shared/wakeable-loop';
import { DeliveryQueue } from './delivery-queue';
import { DeliveryWorker } from './delivery-worker';

export interface QueuedDeliveryOptions extends DeliveryDeps {
  redisUrl: string;
  /** Redis key prefix of the queue. */
  prefix: string;
  /** Attempts in flight at once in this process. */
  concurrency: number;
  /** Set with PostgreSQL: LISTEN for outbox commits. */
  databaseUrl?: string | null;
  /** Poll fallback of the relay and of the enqueuer. */
  pollMs?: number;
  /** How long `stop()` waits for attempts in flight. */
  closeTimeoutMs?: number;
  newId?: () => string;
}

/**
 * The worker deployment (decisions section 9): the outbox relay, the enqueuer that turns
 * new delivery generations into BullMQ jobs (and puts back jobs Redis lost), and the BullMQ
 * worker that attempts them. The relay needs only PostgreSQL, so events keep turning into
 * deliveries while Redis is away; the enqueuer catches up when it is back.
 */
export class QueuedDelivery {
  readonly stack: DeliveryStack;
  readonly queue: DeliveryQueue;
  private readonly worker: DeliveryWorker;
  private readonly relay: WakeableLoop;
  private readonly enqueuer: WakeableLoop;
  private readonly listener: OutboxListener | null;
  private readonly producerRedis: Redis;
  private readonly workerRedis: Redis;
  private readonly lostCheckEveryMs: number;
  private lastLostCheck = 0;

  constructor(options: QueuedDeliveryOptions) {
    const logger: Logger = options.logger;
    this.stack = deliveryStack(options);
    const pollMs = options.pollMs ?? 500;
    // The producer fails fast while Redis is down (the enqueuer retries); the worker waits.
    this.producerRedis = new Redis(options.redisUrl, { maxRetriesPerRequest: 1, enableOfflineQueue: false });
    this.workerRedis = new Redis(options.redisUrl, { maxRetriesPerRequest: null });
    for (const redis of [this.producerRedis, this.workerRedis]) redis.on('error', () => undefined);
    const overdueAfterMs = 2 * this.stack.leaseMs;
    this.lostCheckEveryMs = overdueAfterMs / 2;
    this.queue = new DeliveryQueue(options.db, {
      connection: this.producerRedis,
      prefix: options.prefix,
      overdueAfterMs,
    });
    this.worker = new DeliveryWorker(this.stack.records, this.stack.attempts, logger, {
      connection: this.workerRedis,
      prefix: options.prefix,
      concurrency: options.concurrency,
      lockDurationMs: this.stack.leaseMs,
      closeTimeoutMs: options.closeTimeoutMs,
    });
    this.enqueuer = new WakeableLoop(() => this.enqueue(), {
      idleMs: pollMs,
      errorBackoffMs: 1_000,
      logger,
      name: 'webhook-enqueuer',
    });
    this.relay = relayLoop(new OutboxRelay(options.db, 500, options.newId), {
      pollMs,
      logger,
      onDeliveries: () => this.enqueuer.wake(),
    });
    this.listener = options.databaseUrl
      ? new OutboxListener(options.databaseUrl, () => this.relay.wake(), logger)
      : null;
  }

  async start(): Promise<void> {
    await this.listener?.start();
    this.relay.start();
    this.enqueuer.start();
    this.worker.start();
  }

  wake(): void {
    this.relay.wake();
  }

  /** Stops relaying and enqueuing, lets the worker finish what it holds (up to its close timeout). */
  async stop(): Promise<void> {
    await this.listener?.stop();
    await Promise.all([this.relay.stop(), this.enqueuer.stop()]);
    await this.worker.close();
    await this.queue.close();
    this.stack.sender.close();
    await Promise.all(
      [this.producerRedis, this.workerRedis].map((r) => r.quit().catch(() => r.disconnect())),
    );
  }

  private async enqueue(): Promise<boolean> {
    const enqueued = await this.queue.enqueueNew();
    if (Date.now() - this.lastLostCheck >= this.lostCheckEveryMs) {
      await this.queue.requeueLost();
      this.lastLostCheck = Date.now();
    }
    return enqueued === this.queue.batchSize;
  }
}
