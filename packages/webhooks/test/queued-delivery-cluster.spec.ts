import { slotPrefix } from '../src';
import { describeDeliveryBehaviour, TEST_SETTINGS } from './support/delivery-behaviour';
import {
  appendEvents,
  givenEndpoint,
  givenLocation,
  occupiedEvents,
  openHarness,
  waitForDeliveries,
  type Harness,
} from './support/harness';
import { Receiver, testPrefix, verify, type ReceivedRequest } from '@pis/testing/webhooks';
import { RedisTestCluster } from './support/redis-cluster';
import { queuedDelivery } from './support/queued';

/**
 * The worker deployment on a real Redis Cluster (three masters, three replicas; decision
 * 0190): the whole delivery behaviour, then a master killed during a burst. One cluster for
 * the file; the failover comes last, as it leaves one master without a replica.
 */
let cluster: RedisTestCluster;

beforeAll(async () => {
  cluster = await RedisTestCluster.start();
}, 90_000);
afterAll(async () => {
  await cluster?.destroy();
});

describeDeliveryBehaviour('BullMQ worker on a Redis Cluster', async (h, settings) => {
  const delivery = queuedDelivery(h, { prefix: testPrefix('cluster'), settings, redis: cluster.target });
  await delivery.start();
  return { wake: () => delivery.wake(), stop: () => delivery.stop() };
});

describe('BullMQ worker on a Redis Cluster: one slot per queue', () => {
  it('When the whole delivery behaviour has run on the cluster, then no node answered a command with CROSSSLOT or MOVED', async () => {
    const errors = await cluster.errorReplies();

    // CROSSSLOT: a script over keys of two slots; MOVED: a command sent to a node that does not hold its slot.
    expect(errors['CROSSSLOT'] ?? 0).toBe(0);
    expect(errors['MOVED'] ?? 0).toBe(0);
  });

  it('When the queue prefix is pis, then on a cluster its keys carry the hash tag {pis} (on a single Redis, pis as before)', () => {
    expect(slotPrefix(cluster.target, 'pis')).toBe('{pis}');
    expect(slotPrefix(cluster.target, '{pis}')).toBe('{pis}');
    expect(slotPrefix({ url: 'redis://127.0.0.1:6379' }, 'pis')).toBe('pis');
  });
});

describe('BullMQ worker on a Redis Cluster: the queue lost', () => {
  let h: Harness;
  let receiver: Receiver;

  beforeAll(async () => {
    h = await openHarness();
    receiver = await Receiver.start();
  });
  afterAll(async () => {
    await receiver?.close();
    await h?.close();
  });

  it("When every key of the queue's slot is lost while retries wait far in the future, then the next enqueuer round puts every job back at once (the reset sentinel shares the slot)", async () => {
    const locationId = await givenLocation(h);
    await givenEndpoint(h, locationId, receiver.url);
    receiver.respond = () => ({ status: 503 });
    const prefix = testPrefix('cluster-reset');
    const delivery = queuedDelivery(h, {
      settings: { ...TEST_SETTINGS, retryDelaysMs: [3_600_000] },
      redis: cluster.target,
      prefix,
      concurrency: 4,
    });
    await delivery.start();
    try {
      await appendEvents(h, locationId, occupiedEvents(20));
      await receiver.waitFor(() => receiver.ids().size === 20, 20_000, 'a first attempt of each');
      await waitUntilTrue(async () => (await delivery.queue.queue.getDelayedCount()) === 20);

      const deleted = await cluster.deleteKeys(`${slotPrefix(cluster.target, prefix)}:*`);
      const lost = Date.now();
      await waitUntilTrue(async () => (await delivery.queue.queue.getDelayedCount().catch(() => 0)) === 20);
      const restoredAfterMs = Date.now() - lost;

      expect(deleted).toBeGreaterThan(20);
      // Overdue-only checking would wait for the retries' due time, an hour away.
      expect(restoredAfterMs).toBeLessThan(5_000);
      expect(receiver.requests).toHaveLength(20);
    } finally {
      await delivery.stop();
    }
  });
});

describe('BullMQ worker on a Redis Cluster: the master of the queue killed during a burst', () => {
  let h: Harness;
  let receiver: Receiver;

  beforeAll(async () => {
    h = await openHarness();
    receiver = await Receiver.start();
  });
  afterAll(async () => {
    await receiver?.close();
    await h?.close();
  });

  it("When the master holding the queue's slot is SIGKILLed while events are delivered, then its replica takes over and every event still reaches the receiver, verified, within the safety net's bound", async () => {
    const locations = await Promise.all([0, 1, 2, 3].map(() => givenLocation(h)));
    const endpoints = await Promise.all(locations.map((l) => givenEndpoint(h, l, receiver.url)));
    const secretOf = new Map(locations.map((l, i) => [l, endpoints[i]!.secrets[0]!.secret]));
    // A little work per request, so the burst is still going when the master dies.
    receiver.respond = async () => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      return { status: 204 };
    };
    const prefix = testPrefix('failover');
    const delivery = queuedDelivery(h, { prefix, redis: cluster.target, concurrency: 8 });
    await delivery.start();
    try {
      const perBatch = 15;
      const batches = 20; // 5 per location: 300 events
      const appended: string[] = [];
      const append = async (from: number, to: number) => {
        for (let b = from; b < to; b++) {
          const stored = await appendEvents(h, locations[b % locations.length]!, occupiedEvents(perBatch));
          appended.push(...stored.map((e) => e.id));
          delivery.wake();
        }
      };
      await append(0, batches / 2);
      await receiver.waitFor(() => receiver.ids().size >= 30, 20_000, 'the burst under way');

      const killed = await cluster.killMasterOf(slotPrefix(cluster.target, prefix));
      // The rest of the burst comes while the slot has no master.
      await append(batches / 2, batches);
      await cluster.waitUntilHealthy();
      expect(await cluster.masterPorts()).not.toContain(killed);

      // A job the dead master had not passed to its replica is gone: the safety net finds
      // its delivery once it is two leases overdue, checking once a lease.
      const leaseMs = delivery.stack.leaseMs;
      await receiver.waitFor(
        () => receiver.ids().size === appended.length,
        3 * leaseMs + 10_000,
        `all ${appended.length} events after the failover (${receiver.ids().size} arrived)`,
      );

      expect(receiver.ids()).toEqual(new Set(appended));
      // Every event arrived signed with its location's endpoint secret.
      const verifies = (request: ReceivedRequest) =>
        [...secretOf.values()].some((secret) => {
          try {
            verify(request, secret);
            return true;
          } catch {
            return false;
          }
        });
      const verified = receiver.requests.filter(verifies).map((r) => String(r.headers['webhook-id']));
      expect(new Set(verified)).toEqual(new Set(appended));
      for (const location of locations) {
        const all = await waitForDeliveries(h, location, (ds) => ds.every((d) => d.status === 'succeeded'));
        expect(all).toHaveLength((batches / locations.length) * perBatch);
      }
    } finally {
      await delivery.stop();
    }
    // Its own bound: the failover, then up to three leases and 10 s for what the dead master lost.
  }, 120_000);
});

async function waitUntilTrue(condition: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('the condition never held');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
