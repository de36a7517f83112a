import { Redis } from 'ioredis';
import { DeliveryQueue, deliveryJobId, type DeliveryJobData } from '../src';
import { describeDeliveryBehaviour, TEST_SETTINGS } from './support/delivery-behaviour';
import {
  appendEvents,
  deliveries,
  givenEndpoint,
  givenLocation,
  occupiedEvents,
  openHarness,
  relayAll,
  type Harness,
} from './support/harness';
import { OwnRedis } from '@pis/testing/webhooks';
import { Receiver } from '@pis/testing/webhooks';
import { dropPrefix, REDIS_URL, testPrefix } from '@pis/testing/webhooks';
import { holdRequests, queuedDelivery, usePipelineFixture } from './support/queued';

describeDeliveryBehaviour('BullMQ worker', async (h, settings) => {
  const prefix = testPrefix('queued');
  const delivery = queuedDelivery(h, { prefix, settings });
  await delivery.start();
  return {
    wake: () => delivery.wake(),
    stop: async () => {
      await delivery.stop();
      await dropPrefix(prefix);
    },
  };
});

describe('QueuedDelivery: Redis restarted empty', () => {
  let h: Harness;
  let redis: OwnRedis;
  let receiver: Receiver;

  beforeAll(async () => {
    h = await openHarness();
    redis = await OwnRedis.start();
    receiver = await Receiver.start();
  });
  afterAll(async () => {
    await receiver?.close();
    await redis?.down();
    await h?.close();
  });

  it('When Redis loses its data while retries wait far in the future, then the next enqueuer round puts every job back at once (not when it is overdue)', async () => {
    const locationId = await givenLocation(h);
    await givenEndpoint(h, locationId, receiver.url);
    receiver.respond = () => ({ status: 503 });
    const delivery = queuedDelivery(h, {
      settings: { ...TEST_SETTINGS, retryDelaysMs: [3_600_000] },
      redis: { url: redis.url },
      prefix: testPrefix('reset'),
      concurrency: 4,
    });
    await delivery.start();
    try {
      await appendEvents(h, locationId, occupiedEvents(20));
      await receiver.waitFor(() => receiver.ids().size === 20, 20_000, 'a first attempt of each');
      await waitUntilTrue(async () => (await delivery.queue.queue.getDelayedCount()) === 20);

      await redis.down();
      await redis.up();
      const back = Date.now();
      await waitUntilTrue(async () => (await delivery.queue.queue.getDelayedCount().catch(() => 0)) === 20);
      const restoredAfterMs = Date.now() - back;

      // Overdue-only checking would wait for the retries' due time, an hour away.
      expect(restoredAfterMs).toBeLessThan(5_000);
      expect(receiver.requests).toHaveLength(20);
      expect((await deliveries(h, locationId)).map((d) => d.status)).toEqual(Array(20).fill('pending'));
    } finally {
      await delivery.stop();
    }
  });
});

describe('QueuedDelivery: a job Redis holds without its data', () => {
  const f = usePipelineFixture('remnant');

  it('When the job of a pending delivery lost its data (a command in flight while its keys were deleted wrote part of it back), then the worker attempts the delivery its id names at once', async () => {
    const { h, receiver, prefix } = f;
    const locationId = await givenLocation(h);
    await givenEndpoint(h, locationId, receiver.url);
    const [event] = await appendEvents(h, locationId, occupiedEvents(1));
    await relayAll(h);
    const [pending] = await deliveries(h, locationId);
    const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
    const queue = new DeliveryQueue(h.persistence.pipeline.candidates, { connection: redis, prefix });
    await queue.queue.add('deliver', {} as DeliveryJobData, { jobId: deliveryJobId(pending!.id, 0) });
    await h.persistence.pipeline.candidates.markQueued([{ deliveryId: pending!.id, generation: 0 }]);
    await queue.close();
    redis.disconnect();

    const delivery = queuedDelivery(h, { prefix, concurrency: 4 });
    await delivery.start();
    try {
      // Without the id to go by, the job would end as "gone" and the delivery wait for the
      // safety net's overdue check (two leases: 16 s at these settings).
      await receiver.waitFor(
        () => receiver.ids().has(event!.id),
        5_000,
        'the delivery of the job without data',
      );
      await waitUntilTrue(async () => (await deliveries(h, locationId))[0]?.status === 'succeeded', 5_000);
      expect(receiver.requests).toHaveLength(1);
    } finally {
      await delivery.stop();
    }
  });
});

describe("QueuedDelivery: a relayed delivery's first attempt runs under the relay's lease", () => {
  const f = usePipelineFixture('relay-lease');

  it('When the relay hands a delivery over, then its first attempt claims nothing: while the receiver has it, the delivery is leased until its insert plus one lease', async () => {
    const { h, receiver, prefix } = f;
    const locationId = await givenLocation(h);
    await givenEndpoint(h, locationId, receiver.url);
    const leaseMs = 2 * TEST_SETTINGS.timeoutMs + 5_000;
    const seen: number[] = [];
    receiver.respond = async () => {
      const [row] = (await h.db.dataSource.query(
        `SELECT extract(epoch FROM next_attempt_at - created_at) * 1000 AS leased_ms
           FROM webhook_deliveries WHERE location_id = $1`,
        [locationId],
      )) as { leased_ms: string }[];
      seen.push(Number(row!.leased_ms));
      return { status: 204 };
    };
    const delivery = queuedDelivery(h, { prefix });
    await delivery.start();
    try {
      await appendEvents(h, locationId, occupiedEvents(1));
      await receiver.waitFor(() => seen.length === 1, 20_000, 'the delivery');

      // A claim would have moved it one lease past the claim, later than one past the insert.
      expect(seen[0]).toBeGreaterThanOrEqual(leaseMs - 1);
      expect(seen[0]).toBeLessThan(leaseMs + 1);
    } finally {
      await delivery.stop();
    }
  });
});

describe('QueuedDelivery: jobs parked for a capped endpoint', () => {
  const f = usePipelineFixture('parked');

  it('When an endpoint fails every attempt at once (one slot of eight), then its parked jobs are called back as each attempt ends, not left to their own delay', async () => {
    const { h, receiver, prefix } = f;
    const locationId = await givenLocation(h);
    await givenEndpoint(h, locationId, receiver.url);
    receiver.respond = () => ({ status: 500 });
    // A parked job not called back comes back by itself after half a turn at least, a turn
    // being the delivery timeout: 30 s here, longer than the whole wait below.
    const delivery = queuedDelivery(h, {
      prefix,
      settings: { ...TEST_SETTINGS, retryDelaysMs: [600_000], timeoutMs: 60_000 },
      pollMs: 50,
    });
    await delivery.start();
    try {
      await appendEvents(h, locationId, occupiedEvents(60));

      // One slot at a time once the endpoint fails: the first attempt of every one of the 60
      // arrives only if each parked job is called back as a failed attempt ends.
      await receiver.waitFor(() => receiver.ids().size === 60, 25_000, 'a first attempt of each of 60');
      expect(receiver.ids().size).toBe(60);
    } finally {
      await delivery.stop();
    }
  });
});

describe('QueuedDelivery: Redis loses the jobs of a parked line', () => {
  const f = usePipelineFixture('lostline');

  it("When Redis loses every job while an endpoint's line waits parked behind held requests, then the requeue puts every one back, more than one page of them, and every event arrives once the receiver answers", async () => {
    const { h, receiver, prefix } = f;
    const locationId = await givenLocation(h);
    await givenEndpoint(h, locationId, receiver.url);
    const requests = holdRequests(receiver);
    // 8 slots: the endpoint's first 2 attempts are held, the other 58 jobs parked. A 5 s
    // timeout: the relay leases each delivery for 15 s from its insert.
    const delivery = queuedDelivery(h, {
      prefix,
      requeuePageSize: 10,
      settings: { ...TEST_SETTINGS, timeoutMs: 5_000 },
    });
    await delivery.start();
    try {
      const stored = await appendEvents(h, locationId, occupiedEvents(60));
      delivery.wake();
      await waitUntilTrue(async () => {
        const usage = delivery.slotUsage();
        return usage.inFlight + usage.parkedJobs === 60;
      });

      await dropPrefix(prefix);
      requests.release();

      // The requeued jobs wait out the relay's lease (15 s from the insert), then are attempted.
      // A requeue that stopped after its first page would leave the other 48 to the overdue
      // check, two leases past their due time: later than this wait.
      await receiver.waitFor(
        () => stored.every((e) => receiver.ids().has(e.id)),
        30_000,
        'every event after the loss',
      );
      expect(stored.filter((e) => !receiver.ids().has(e.id))).toEqual([]);
    } finally {
      await delivery.stop();
    }
  }, 60_000);
});

async function waitUntilTrue(condition: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('the condition never held');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
