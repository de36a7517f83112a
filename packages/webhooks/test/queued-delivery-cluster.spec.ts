import { createRedis, slotPrefix } from '../src';
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
import { Receiver, REDIS_URL, testPrefix, verify, type ReceivedRequest } from '@pis/testing/webhooks';
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
  it('When the whole delivery behaviour has run on the cluster, then no node answered a command with CROSSSLOT, and MOVED at most by the odd retry', async () => {
    const errors = await cluster.errorReplies();
    const commands = await cluster.commandsProcessed();

    // CROSSSLOT: a script over keys of two slots (the queue's keys not sharing one).
    expect(errors['CROSSSLOT'] ?? 0).toBe(0);
    // MOVED: a command sent to a node that does not hold its slot. Routing by a wrong slot map
    // would be redirected for most commands (two masters in three do not hold a given slot);
    // a command retried after a connection hiccup goes to a random node first and is
    // redirected once, which a busy machine causes now and then (the client follows it).
    expect(commands).toBeGreaterThan(1_000);
    expect(errors['MOVED'] ?? 0).toBeLessThanOrEqual(commands / 1_000);
  });

  it('When a Redis user asks for auto-pipelining, then on a cluster it is off (commands in flight at a failover could wait forever) and on a single Redis on', () => {
    const onCluster = createRedis(cluster.target, { enableAutoPipelining: true, lazyConnect: true });
    const single = createRedis({ url: REDIS_URL }, { enableAutoPipelining: true, lazyConnect: true });
    try {
      expect(onCluster.options.enableAutoPipelining).toBe(false);
      expect(single.options.enableAutoPipelining).toBe(true);
    } finally {
      onCluster.disconnect();
      single.disconnect();
    }
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
    // Each phase has its own bound and says which one ran out (with the time each took), so
    // a failure names its phase rather than Jest's timeout for the whole test.
    const phases = new Phases();
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
      await phases.run('the first half appended', 20_000, () => append(0, batches / 2));
      await phases.run('the burst under way', 20_000, () =>
        receiver.waitFor(() => receiver.ids().size >= 30, 20_000, 'the burst under way'),
      );

      const killed = await cluster.killMasterOf(slotPrefix(cluster.target, prefix));
      // The rest of the burst comes while the slot has no master.
      await phases.run('the second half appended', 20_000, () => append(batches / 2, batches));
      await phases.run('the failover', 45_000, () => cluster.waitUntilHealthy(45_000));
      expect(await cluster.masterPorts()).not.toContain(killed);

      // A job the dead master had not passed to its replica is gone: the safety net finds
      // its delivery once it is two leases overdue, checking once a lease.
      const leaseMs = delivery.stack.leaseMs;
      // (The phase's bound is the receiver's and a little more, so the receiver's count is what a failure says.)
      await phases.run('every event received', 3 * leaseMs + 15_000, () =>
        receiver.waitFor(
          () => receiver.ids().size === appended.length,
          3 * leaseMs + 10_000,
          `all ${appended.length} events after the failover (${receiver.ids().size} arrived)`,
        ),
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
      const recorded = await phases.run('every delivery recorded as succeeded', 20_000, () =>
        Promise.all(
          locations.map((l) => waitForDeliveries(h, l, (ds) => ds.every((d) => d.status === 'succeeded'))),
        ),
      );
      for (const all of recorded) expect(all).toHaveLength((batches / locations.length) * perBatch);
    } finally {
      await phases.run('the worker stopped', 15_000, () => delivery.stop());
    }
    // The sum of the phases' bounds, and a minute for what is not a phase.
  }, 250_000);
});

/** Runs a test's phases one after the other, each within its own bound, and names the one that ran out. */
class Phases {
  private readonly started = Date.now();
  private readonly took: string[] = [];

  async run<T>(name: string, boundMs: number, phase: () => Promise<T>): Promise<T> {
    const from = Date.now();
    let timer: NodeJS.Timeout | undefined;
    const ranOut = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () =>
          reject(
            new Error(
              `${name}: not done within ${boundMs} ms (${Date.now() - this.started} ms into the test; before it: ${this.took.join(', ') || 'nothing'})`,
            ),
          ),
        boundMs,
      );
    });
    try {
      const done = await Promise.race([phase(), ranOut]);
      this.took.push(`${name} ${Date.now() - from} ms`);
      return done;
    } catch (error) {
      this.took.push(`${name} failed after ${Date.now() - from} ms (${(error as Error).message})`);
      throw error;
    } finally {
      clearTimeout(timer);
    }
  }
}

async function waitUntilTrue(condition: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('the condition never held');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
