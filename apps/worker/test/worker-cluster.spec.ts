import {
  appendEvents,
  deliveries,
  givenEndpoint,
  givenLocation,
  oneEventOfEveryType,
  openHarness,
  type Harness,
} from '@pis/webhooks/test-support';
import { Receiver, testPrefix, verify } from '@pis/testing/webhooks';
import { RedisTestCluster } from '@pis/webhooks/test-support';
import { workerEnv } from './support/worker-env';
import { WorkerProcess } from '@pis/testing/worker';

jest.setTimeout(60_000);

/** `pnpm start:worker` with `REDIS_CLUSTER_NODES` (decision 0190): the worker process on a real Redis Cluster. */
describe('the worker process on a Redis Cluster', () => {
  let h: Harness;
  let receiver: Receiver;
  let cluster: RedisTestCluster;
  let worker: WorkerProcess | null = null;

  beforeAll(async () => {
    [h, receiver, cluster] = await Promise.all([openHarness(), Receiver.start(), RedisTestCluster.start()]);
  }, 90_000);
  afterAll(async () => {
    await worker?.stop('SIGKILL');
    await receiver?.close();
    await cluster?.destroy();
    await h?.close();
  });

  it('When REDIS_CLUSTER_NODES names the seed nodes (and no REDIS_URL), then the worker delivers every event, signed, with the queue under the hash tag {prefix} on one master; on SIGTERM it exits 0', async () => {
    const locationId = await givenLocation(h);
    const endpoint = await givenEndpoint(h, locationId, receiver.url);
    const secret = endpoint.secrets[0]!.secret;
    const prefix = testPrefix('worker-cluster');
    const { REDIS_URL: _single, ...env } = workerEnv(h, 'redis://unused', prefix);
    worker = await WorkerProcess.start({ ...env, REDIS_CLUSTER_NODES: cluster.nodes });

    const stored = await appendEvents(h, locationId, oneEventOfEveryType());
    await receiver.waitFor(() => receiver.ids().size === stored.length);
    const holding = await cluster.mastersWithKeys(`{${prefix}}:webhook-deliveries:*`);
    const untagged = await cluster.mastersWithKeys(`${prefix}:*`);
    const code = await worker.stop('SIGTERM');
    worker = null;

    expect(code).toBe(0);
    expect(new Set(receiver.requests.map((r) => String(r.headers['webhook-id'])))).toEqual(
      new Set(stored.map((e) => e.id)),
    );
    for (const request of receiver.requests) expect(() => verify(request, secret)).not.toThrow();
    expect((await deliveries(h, locationId)).map((d) => d.status)).toEqual(
      Array(stored.length).fill('succeeded'),
    );
    expect(holding).toBe(1);
    expect(untagged).toBe(0);
    const errors = await cluster.errorReplies();
    expect(errors['CROSSSLOT'] ?? 0).toBe(0);
  });
});
