import { Redis } from 'ioredis';
import { DeliveryQueue, deliveryJobId, OutboxRelay, QueuedDelivery } from '../src';
import { TEST_SETTINGS } from './support/delivery-behaviour';
import {
  appendEvents,
  deliveries,
  givenEndpoint,
  givenLocation,
  occupiedEvents,
  openHarness,
  requestRedelivery,
  type Harness,
} from './support/harness';
import { Receiver } from './support/receiver';
import { dropPrefix, REDIS_URL, testPrefix } from './support/redis';
import { testLogger } from './support/test-logger';

describe('DeliveryQueue (the enqueuer)', () => {
  const prefix = testPrefix('queue');
  let h: Harness;
  let redis: Redis;
  let queue: DeliveryQueue;

  beforeAll(async () => {
    h = await openHarness();
    redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
    queue = new DeliveryQueue(h.db.dataSource, { connection: redis, prefix, overdueAfterMs: 0 });
  });
  afterAll(async () => {
    await queue?.close();
    redis?.disconnect();
    await dropPrefix(prefix);
    await h?.close();
  });

  async function givenPendingDelivery(): Promise<{ locationId: string; id: string }> {
    const locationId = await givenLocation(h);
    await givenEndpoint(h, locationId, 'https://hooks.provider.example/hooks');
    await appendEvents(h, locationId, occupiedEvents(1));
    const relay = new OutboxRelay(h.db.dataSource);
    while ((await relay.relayBatch()).events === relay.size);
    return { locationId, id: (await deliveries(h, locationId))[0]!.id };
  }

  const queuedGeneration = async (id: string) =>
    (
      (await h.db.dataSource.query(
        `SELECT queued_generation, attempt_count FROM webhook_deliveries WHERE id = $1`,
        [id],
      )) as { queued_generation: number | null; attempt_count: number }[]
    )[0]!;

  it('When new deliveries are enqueued twice (two relays), then each generation has exactly one job, named <id>-<generation>', async () => {
    const { id } = await givenPendingDelivery();

    await queue.enqueueNew();
    await h.db.dataSource.query(`UPDATE webhook_deliveries SET queued_generation = NULL WHERE id = $1`, [id]);
    await queue.enqueueNew();

    const jobs = (await queue.queue.getJobs(['waiting', 'delayed'])).filter((j) => j.data.deliveryId === id);
    expect(jobs.map((j) => j.id)).toEqual([`${id}-0`]);
    expect(jobs[0]!.data).toEqual({ deliveryId: id, generation: 0 });
    expect((await queuedGeneration(id)).queued_generation).toBe(0);
  });

  it('When a failed delivery is redelivered, then the new generation gets its own job and its attempt count starts over', async () => {
    const { id, locationId } = await givenPendingDelivery();
    await queue.enqueueNew();
    await h.db.dataSource.query(
      `UPDATE webhook_deliveries SET status = 'failed', attempt_count = 3 WHERE id = $1`,
      [id],
    );

    await requestRedelivery(h, locationId, id);
    await queue.enqueueNew();

    expect(await queue.queue.getJob(deliveryJobId(id, 1))).toBeDefined();
    expect(await queuedGeneration(id)).toEqual({ queued_generation: 1, attempt_count: 0 });
  });

  it('When Redis is unreachable, then enqueuing fails and the delivery stays marked unqueued, so the next round enqueues it', async () => {
    const { id } = await givenPendingDelivery();
    const deadRedis = new Redis('redis://127.0.0.1:1', {
      maxRetriesPerRequest: 0,
      enableOfflineQueue: false,
      lazyConnect: true,
      retryStrategy: () => null,
    });
    deadRedis.on('error', () => undefined);
    const unreachable = new DeliveryQueue(h.db.dataSource, { connection: deadRedis, prefix });

    await expect(unreachable.enqueueNew()).rejects.toThrow();
    const afterFailure = await queuedGeneration(id);
    await queue.enqueueNew();

    expect(afterFailure.queued_generation).toBeNull();
    expect(await queue.queue.getJob(deliveryJobId(id, 0))).toBeDefined();
    await unreachable.close().catch(() => undefined);
    deadRedis.disconnect();
  });

  it('When Redis lost the job of an overdue pending delivery, then the safety net enqueues it again; a job still held is left alone', async () => {
    const { id } = await givenPendingDelivery();
    await queue.enqueueNew();
    const whileHeld = await queue.requeueLost();

    await (await queue.queue.getJob(deliveryJobId(id, 0)))!.remove();
    const afterLoss = await queue.requeueLost();

    expect(whileHeld).toBe(0);
    expect(afterLoss).toBeGreaterThanOrEqual(1);
    expect(await queue.queue.getJob(deliveryJobId(id, 0))).toBeDefined();
  });
});

describe('QueuedDelivery: graceful stop', () => {
  const prefix = testPrefix('stop');
  let h: Harness;
  let receiver: Receiver;

  beforeAll(async () => {
    h = await openHarness();
    receiver = await Receiver.start();
  });
  afterAll(async () => {
    await receiver?.close();
    await dropPrefix(prefix);
    await h?.close();
  });

  it('When the worker is stopped during an attempt, then the attempt completes and is recorded before stop returns', async () => {
    const locationId = await givenLocation(h);
    await givenEndpoint(h, locationId, receiver.url);
    receiver.respond = () => ({ status: 200, delayMs: 300 });
    const delivery = new QueuedDelivery({
      db: h.db.dataSource,
      endpoints: h.persistence.queries.webhooks,
      logger: testLogger,
      settings: { ...TEST_SETTINGS, timeoutMs: 2_000 },
      redisUrl: REDIS_URL,
      prefix,
      concurrency: 4,
      databaseUrl: h.db.url,
      pollMs: 100,
    });
    await delivery.start();

    await appendEvents(h, locationId, occupiedEvents(1));
    await receiver.waitFor(() => receiver.requests.length === 1);
    await delivery.stop();

    expect((await deliveries(h, locationId)).map((d) => [d.status, d.attempts.length])).toEqual([
      ['succeeded', 1],
    ]);
  });

  it('When Redis is unreachable, then stop still returns within seconds (SIGTERM during an outage)', async () => {
    const delivery = new QueuedDelivery({
      db: h.db.dataSource,
      endpoints: h.persistence.queries.webhooks,
      logger: testLogger,
      settings: TEST_SETTINGS,
      redisUrl: 'redis://127.0.0.1:1',
      prefix,
      concurrency: 2,
      pollMs: 100,
    });
    await delivery.start();
    const started = Date.now();

    await delivery.stop();

    expect(Date.now() - started).toBeLessThan(8_000);
  });
});
