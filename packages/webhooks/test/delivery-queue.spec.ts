import { Redis } from 'ioredis';
import { DeliveryQueue, deliveryJobId } from '../src';
import { deliveryOfJob, fairPriorities } from '../src/queue/delivery-queue';
import { TEST_SETTINGS } from './support/delivery-behaviour';
import {
  appendEvents,
  deliveries,
  givenEndpoint,
  givenLocation,
  occupiedEvents,
  openHarness,
  relayAll,
  requestRedelivery,
  type Harness,
} from './support/harness';
import { dropPrefix, REDIS_URL, testPrefix } from '@pis/testing/webhooks';
import { queuedDelivery, usePipelineFixture } from './support/queued';

describe('deliveryOfJob', () => {
  const id = '0196a0b2-3c4d-7e5f-8a9b-0c1d2e3f4a5b';

  it('When a job has its data, then the data says which delivery; without it, the job id does; otherwise none', () => {
    expect(deliveryOfJob(deliveryJobId(id, 3), { deliveryId: id, generation: 3, endpointId: 'e' })).toEqual({
      deliveryId: id,
      generation: 3,
      endpointId: 'e',
    });
    expect(deliveryOfJob(deliveryJobId(id, 12), {})).toEqual({ deliveryId: id, generation: 12 });
    expect(deliveryOfJob(deliveryJobId(id, 0), undefined)).toEqual({ deliveryId: id, generation: 0 });
    expect(deliveryOfJob('repeat:sweep', {})).toBeNull();
    expect(deliveryOfJob(`${id}-x`, {})).toBeNull();
    expect(deliveryOfJob(undefined, {})).toBeNull();
  });

  it('When a job carries its event, then the event comes with the provider owning its reservation; a job written without that owner carries no event the attempt may use', () => {
    const carried = (reservationProviderId?: string | null) => ({
      deliveryId: id,
      generation: 0,
      endpointId: 'e',
      locationId: 'l',
      event: {
        id: 'ev',
        sequence: 4,
        type: 'table.occupied' as const,
        occurredAtMicros: '1764000000000000',
        data: { reservationExternalId: 'r-1' },
        ...(reservationProviderId === undefined ? {} : { reservationProviderId }),
      },
    });

    expect(deliveryOfJob(deliveryJobId(id, 0), carried('p-1'))?.event).toMatchObject({
      id: 'ev',
      locationId: 'l',
      reservationProviderId: 'p-1',
    });
    expect(deliveryOfJob(deliveryJobId(id, 0), carried(null))?.event).not.toHaveProperty(
      'reservationProviderId',
    );
    expect(deliveryOfJob(deliveryJobId(id, 0), carried(null))?.event?.id).toBe('ev');
    expect(deliveryOfJob(deliveryJobId(id, 0), carried())?.event).toBeUndefined();
  });
});

describe('DeliveryQueue (the enqueuer)', () => {
  const prefix = testPrefix('queue');
  let h: Harness;
  let redis: Redis;
  let queue: DeliveryQueue;

  beforeAll(async () => {
    h = await openHarness();
    redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
    queue = new DeliveryQueue(h.persistence.pipeline.candidates, {
      connection: redis,
      prefix,
      overdueAfterMs: 0,
    });
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
    await relayAll(h);
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

    const jobs = (await queue.queue.getJobs(['waiting', 'prioritized', 'delayed'])).filter(
      (j) => j.data.deliveryId === id,
    );
    expect(jobs.map((j) => j.id)).toEqual([`${id}-0`]);
    expect(jobs[0]!.data).toEqual({ deliveryId: id, generation: 0, endpointId: expect.any(String) });
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
    const unreachable = new DeliveryQueue(h.persistence.pipeline.candidates, {
      connection: deadRedis,
      prefix,
    });

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

  it('When an attempt that finished after the loss left a remnant of its job in Redis, then the safety net still enqueues the job', async () => {
    const { id } = await givenPendingDelivery();
    await queue.enqueueNew();
    const jobId = deliveryJobId(id, 0);
    await (await queue.queue.getJob(jobId))!.remove();
    // What moving a job whose keys were deleted to the delayed set writes: a hash in no state.
    await redis.hset(`${prefix}:${queue.queue.name}:${jobId}`, 'delay', '0');

    const requeued = await queue.requeueLost();

    expect(requeued).toBeGreaterThanOrEqual(1);
    expect(await queue.queue.getJobState(jobId)).toBe('prioritized');
    expect((await queue.queue.getJob(jobId))?.data).toEqual({
      deliveryId: id,
      generation: 0,
      endpointId: expect.any(String),
    });
  });
});

describe("DeliveryQueue: the relay's hand-off", () => {
  const prefix = testPrefix('handoff');
  let h: Harness;
  let redis: Redis;

  beforeAll(async () => {
    h = await openHarness();
    redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
  });
  afterAll(async () => {
    redis?.disconnect();
    await dropPrefix(prefix);
    await h?.close();
  });

  async function relayedMarked(locationId: string, events = 2) {
    await givenEndpoint(h, locationId, 'https://hooks.provider.example/hooks');
    await appendEvents(h, locationId, occupiedEvents(events));
    const created = [];
    for (;;) {
      const batch = await h.persistence.pipeline.relay.relayBatch(500, { leaseMs: 60_000 });
      created.push(...batch.created.filter((d) => d.locationId === locationId));
      if (batch.events === 0) return created;
    }
  }

  /** A queue under its own prefix for one test, closed and its keys dropped after it. */
  async function withOwnQueue(suffix: string, use: (queue: DeliveryQueue) => Promise<void>): Promise<void> {
    const queue = new DeliveryQueue(h.persistence.pipeline.candidates, {
      connection: redis,
      prefix: `${prefix}-${suffix}`,
    });
    try {
      await use(queue);
    } finally {
      await queue.close();
      await dropPrefix(`${prefix}-${suffix}`);
    }
  }

  it('When the relay hands its deliveries over, then each job carries its event, and the enqueuer has nothing left to add', async () => {
    const queue = new DeliveryQueue(h.persistence.pipeline.candidates, { connection: redis, prefix });
    try {
      const locationId = await givenLocation(h);
      const created = await relayedMarked(locationId);

      await queue.handOff(created);
      const enqueued = await queue.enqueueNew();

      const jobs = await Promise.all(created.map((d) => queue.queue.getJob(deliveryJobId(d.deliveryId, 0))));
      expect(jobs.map((j) => deliveryOfJob(j!.id, j!.data)?.event)).toStrictEqual(
        created.map((d) => d.event),
      );
      expect(enqueued).toBe(0);
    } finally {
      await queue.close();
    }
  });

  it("When one endpoint's backlog and another location's delivery are handed over together, then the queue hands out the other's delivery right after the backlog's first job, not behind the whole backlog", async () => {
    await withOwnQueue('f', async (queue) => {
      const busy = await givenLocation(h);
      const quiet = await givenLocation(h);
      const backlog = await relayedMarked(busy, 6);
      const single = await relayedMarked(quiet, 1);

      await queue.handOff([...backlog, ...single]);

      // BullMQ hands prioritized jobs out lowest priority first, jobs of one priority in the order added.
      const order = (await queue.queue.getPrioritized(0, -1)).map((j) => j.data.deliveryId);
      expect(order).toEqual([
        backlog[0]!.deliveryId,
        single[0]!.deliveryId,
        ...backlog.slice(1).map((d) => d.deliveryId),
      ]);
    });
  });

  it('When more deliveries are handed over than Redis takes at once, then every job is added with its event, ranked within its endpoint over the whole hand-off', async () => {
    await withOwnQueue('s', async (queue) => {
      const locationId = await givenLocation(h);
      const created = await relayedMarked(locationId, 520);
      expect(created).toHaveLength(520);

      await queue.handOff(created);

      const jobs = await Promise.all(created.map((d) => queue.queue.getJob(deliveryJobId(d.deliveryId, 0))));
      expect(jobs.map((j) => deliveryOfJob(j!.id, j!.data)?.event)).toStrictEqual(
        created.map((d) => d.event),
      );
      expect(jobs.map((j) => j!.opts.priority)).toEqual(fairPriorities(created));
      expect(Math.max(...jobs.map((j) => j!.opts.priority!))).toBe(520);
      expect(await queue.enqueueNew()).toBe(0);
    });
  });

  it('When Redis refuses a later part of a large hand-off, then the deliveries it had not taken are marked unqueued and the next enqueuer round adds exactly those', async () => {
    await withOwnQueue('r', async (queue) => {
      const addBulk = queue.queue.addBulk.bind(queue.queue);
      let calls = 0;
      // Redis taking the first addBulk and refusing the next, as when it goes away mid-way.
      jest.spyOn(queue.queue, 'addBulk').mockImplementation((jobs) => {
        calls += 1;
        return calls === 1 ? addBulk(jobs) : Promise.reject(new Error('Connection is closed.'));
      });
      const locationId = await givenLocation(h);
      const created = await relayedMarked(locationId, 520);

      await expect(queue.handOff(created)).rejects.toThrow('Connection is closed.');
      const taken = (
        await Promise.all(created.map((d) => queue.queue.getJob(deliveryJobId(d.deliveryId, 0))))
      ).filter((j) => j !== undefined).length;
      jest.mocked(queue.queue.addBulk).mockRestore();
      const added = await queue.enqueueNew();

      expect(taken).toBeGreaterThan(0);
      expect(taken).toBeLessThan(created.length);
      expect(added).toBe(created.length - taken);
      for (const d of created) expect(await queue.queue.getJob(deliveryJobId(d.deliveryId, 0))).toBeDefined();
    });
  });

  it('When the deliveries of several endpoints are ranked for the queue, then each endpoint counts its own from 1', () => {
    expect(
      fairPriorities([
        { endpointId: 'a' },
        { endpointId: 'a' },
        { endpointId: 'b' },
        { endpointId: 'a' },
        { endpointId: 'b' },
      ]),
    ).toEqual([1, 2, 1, 3, 2]);
  });

  it('When Redis refuses the hand-off, then the deliveries are marked unqueued again and the next enqueuer round adds them', async () => {
    const deadRedis = new Redis('redis://127.0.0.1:1', {
      maxRetriesPerRequest: 0,
      enableOfflineQueue: false,
      lazyConnect: true,
      retryStrategy: () => null,
    });
    deadRedis.on('error', () => undefined);
    const unreachable = new DeliveryQueue(h.persistence.pipeline.candidates, {
      connection: deadRedis,
      prefix,
    });
    const queue = new DeliveryQueue(h.persistence.pipeline.candidates, { connection: redis, prefix });
    try {
      const locationId = await givenLocation(h);
      const created = await relayedMarked(locationId);

      await expect(unreachable.handOff(created)).rejects.toThrow();
      await queue.enqueueNew();

      for (const d of created) expect(await queue.queue.getJob(deliveryJobId(d.deliveryId, 0))).toBeDefined();
    } finally {
      await unreachable.close().catch(() => undefined);
      deadRedis.disconnect();
      await queue.close();
    }
  });
});

describe('DeliveryQueue: the safety net after Redis lost its data', () => {
  const prefix = testPrefix('resync');
  let h: Harness;
  let redis: Redis;

  beforeAll(async () => {
    h = await openHarness();
    redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
  });
  afterAll(async () => {
    redis?.disconnect();
    await dropPrefix(prefix);
    await h?.close();
  });

  it('When asked whether Redis was reset, then the first look says yes, later ones no, and yes again once its data is gone', async () => {
    const queue = new DeliveryQueue(h.persistence.pipeline.candidates, {
      connection: redis,
      prefix: `${prefix}-s`,
    });
    try {
      const first = await queue.redisWasReset();
      const second = await queue.redisWasReset();
      await redis.del(`${prefix}-s:webhook-deliveries:pis-sentinel`);
      const afterLoss = await queue.redisWasReset();

      expect([first, second, afterLoss]).toEqual([true, false, true]);
    } finally {
      await queue.close();
    }
  });

  it('When Redis lost many jobs, then one pass enqueues every lost one again page by page, and leaves jobs it still holds alone', async () => {
    const queue = new DeliveryQueue(h.persistence.pipeline.candidates, {
      connection: redis,
      prefix: `${prefix}-p`,
      requeuePageSize: 10,
    });
    try {
      const locationId = await givenLocation(h);
      await givenEndpoint(h, locationId, 'https://hooks.provider.example/hooks');
      await appendEvents(h, locationId, occupiedEvents(45));
      await relayAll(h);
      while ((await queue.enqueueNew()) > 0);
      const ids = (await deliveries(h, locationId)).map((d) => d.id);
      const jobsOf = async () =>
        (await queue.queue.getJobs(['waiting', 'prioritized', 'delayed'])).filter((j) =>
          ids.includes(j.data.deliveryId),
        );
      const held = (await jobsOf()).slice(0, 5);
      for (const job of (await jobsOf()).slice(5)) await job.remove();

      const requeued = await queue.requeueLost(null);
      const again = await queue.requeueLost(null);

      expect(requeued).toBeGreaterThanOrEqual(40);
      expect(again).toBe(0);
      const jobs = await jobsOf();
      expect(new Set(jobs.map((j) => j.data.deliveryId))).toEqual(new Set(ids));
      expect(jobs).toHaveLength(45);
      for (const job of held)
        expect(jobs.some((j) => j.id === job.id && j.timestamp === job.timestamp)).toBe(true);
    } finally {
      await queue.close();
    }
  });
});

describe('QueuedDelivery: graceful stop', () => {
  const f = usePipelineFixture('stop');

  it('When the worker is stopped during an attempt, then the attempt completes and is recorded before stop returns', async () => {
    const { h, receiver, prefix } = f;
    const locationId = await givenLocation(h);
    await givenEndpoint(h, locationId, receiver.url);
    receiver.respond = () => ({ status: 200, delayMs: 300 });
    const delivery = queuedDelivery(h, {
      prefix,
      settings: { ...TEST_SETTINGS, timeoutMs: 2_000 },
      concurrency: 4,
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
    const delivery = queuedDelivery(f.h, {
      prefix: f.prefix,
      redis: { url: 'redis://127.0.0.1:1' },
      concurrency: 2,
    });
    await delivery.start();
    const started = Date.now();

    await delivery.stop();

    expect(Date.now() - started).toBeLessThan(8_000);
  });
});
