import { randomUUID } from 'node:crypto';
import {
  appendEvents,
  deliveries,
  givenEndpoint,
  givenLocation,
  oneEventOfEveryType,
  openHarness,
  relayAll,
  type Harness,
} from '@pis/webhooks/test-support';
import { Receiver, verify } from '@pis/testing/webhooks';
import { dropPrefix, testPrefix } from '@pis/testing/webhooks';
import { BACKOFFICE_TOKEN, SHARED_REDIS_URL, workerEnv } from './support/worker-env';
import { WorkerProcess } from '@pis/testing/worker';

jest.setTimeout(60_000);

describe('pnpm start:worker (apps/worker/src/main.ts)', () => {
  it.each([
    ['REDIS_URL', { DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/test', BACKOFFICE_TOKEN }],
    ['DATABASE_URL', { REDIS_URL: SHARED_REDIS_URL }],
  ])(
    'When %s is missing, then the worker refuses to start with a message naming it (exit 2)',
    async (name, env) => {
      const worker = WorkerProcess.spawn(env);

      const code = await worker.exit();

      expect(code).toBe(2);
      expect(worker.log).toContain(`${name} is required`);
    },
  );
});

/** A harness, a receiver and at most one worker process per describe, torn down after it. */
function useWorkerWorld(prefixName: string) {
  const world = {
    prefix: testPrefix(prefixName),
    h: null as unknown as Harness,
    receiver: null as unknown as Receiver,
    worker: null as WorkerProcess | null,
  };
  beforeAll(async () => {
    world.h = await openHarness();
    world.receiver = await Receiver.start();
  });
  afterAll(async () => {
    await world.worker?.stop('SIGKILL');
    await world.receiver?.close();
    await dropPrefix(world.prefix);
    await world.h?.close();
  });
  return world;
}

describe('the worker process', () => {
  const world = useWorkerWorld('worker-main');

  it('When events commit, then the worker delivers each, signed; on SIGTERM it finishes the attempt in flight and exits 0; its log holds no secret', async () => {
    const { h, receiver, prefix } = world;
    const locationId = await givenLocation(h);
    const endpoint = await givenEndpoint(h, locationId, receiver.url);
    const secret = endpoint.secrets[0]!.secret;
    const worker = (world.worker = await WorkerProcess.start(workerEnv(h, SHARED_REDIS_URL, prefix)));

    const stored = await appendEvents(h, locationId, oneEventOfEveryType());
    await receiver.waitFor(() => receiver.ids().size === stored.length);
    receiver.respond = () => ({ status: 204, delayMs: 700 });
    await appendEvents(h, locationId, oneEventOfEveryType().slice(0, 1));
    await receiver.waitFor(() => receiver.ids().size === stored.length + 1);
    const code = await worker.stop('SIGTERM');
    const done = await deliveries(h, locationId);

    expect(code).toBe(0);
    expect(receiver.requests.slice(0, stored.length).map((r) => verify(r, secret))).toEqual(
      expect.arrayContaining(
        stored.map((e) => ({
          type: e.type,
          timestamp: e.occurredAt.toIso(),
          data: { ...e.data, locationId: e.locationId, locationEventSequence: e.sequence },
        })),
      ),
    );
    expect(done.map((d) => d.status)).toEqual(Array(stored.length + 1).fill('succeeded'));
    expect(worker.log).not.toContain('"level":50');
    expect(worker.log).toContain('"msg":"webhook attempt"');
    for (const secretValue of [secret, h.secretsKey, BACKOFFICE_TOKEN])
      expect(worker.log).not.toContain(secretValue);
  });
});

describe('the worker process and recover', () => {
  const world = useWorkerWorld('worker-recover');

  it('When recover queues events again, then the worker delivers each once more with its original webhook-id and body, events from before the endpoint included', async () => {
    const { h, receiver, prefix } = world;
    const locationId = await givenLocation(h);
    const before = await appendEvents(h, locationId, oneEventOfEveryType().slice(0, 2));
    // Fanned out while no endpoint exists: these events have no delivery at all.
    await relayAll(h);
    const endpoint = await givenEndpoint(h, locationId, receiver.url);
    const worker = (world.worker = await WorkerProcess.start(workerEnv(h, SHARED_REDIS_URL, prefix)));
    const after = await appendEvents(h, locationId, oneEventOfEveryType().slice(2));
    await receiver.waitFor(() => receiver.ids().size === after.length);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const firstRound = receiver.requests.length;
    expect(firstRound).toBe(after.length);

    const queued = await h.persistence.uow.run(async (tx) => {
      const value = await tx.eventRecovery.requeue(endpoint, { afterSequence: 0 });
      return { ok: true as const, value };
    });
    const all = [...before, ...after];
    await receiver.waitFor(() => receiver.requests.length === firstRound + all.length);

    expect(queued).toEqual({ ok: true, value: { queued: all.length } });
    const again = receiver.requests.slice(firstRound);
    const secret = endpoint.secrets[0]!.secret;
    expect(again.map((r) => String(r.headers['webhook-id'])).sort()).toEqual(all.map((e) => e.id).sort());
    for (const request of again) {
      const event = all.find((e) => e.id === String(request.headers['webhook-id']))!;
      expect(verify(request, secret)).toEqual({
        type: event.type,
        timestamp: event.occurredAt.toIso(),
        data: { ...event.data, locationId: event.locationId, locationEventSequence: event.sequence },
      });
    }
  });
});

describe('the worker process and retention', () => {
  const world = useWorkerWorld('worker-retention');

  it('When events are older than EVENT_RETENTION_DAYS, then the worker prunes them by itself from its start; newer ones stay', async () => {
    const { h, prefix } = world;
    const locationId = await givenLocation(h);
    const old = await appendEvents(h, locationId, oneEventOfEveryType().slice(0, 3));
    await h.db.dataSource.query(
      `UPDATE outbox_events SET created_at = created_at - interval '2 days' WHERE location_id = $1`,
      [locationId],
    );
    const fresh = await appendEvents(h, locationId, oneEventOfEveryType().slice(3, 4));
    // Relayed before the worker starts: its relay would otherwise hold the rows its first prune
    // skips (SKIP LOCKED), and the next prune comes a minute later.
    await relayAll(h);
    const kept = async () =>
      (
        (await h.db.dataSource.query(
          `SELECT id FROM outbox_events WHERE location_id = $1 ORDER BY sequence`,
          [locationId],
        )) as { id: string }[]
      ).map((r) => r.id);
    expect(await kept()).toEqual([...old, ...fresh].map((e) => e.id));

    world.worker = await WorkerProcess.start({
      ...workerEnv(h, SHARED_REDIS_URL, prefix),
      EVENT_RETENTION_DAYS: '1',
    });
    const deadline = Date.now() + 30_000;
    while ((await kept()).length > fresh.length && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }

    expect(await kept()).toEqual(fresh.map((e) => e.id));
    expect(world.worker.log).toContain('"msg":"events past retention pruned with their deliveries"');
  });
});

describe('the worker process and idempotency keys', () => {
  const world = useWorkerWorld('worker-idempotency');

  it('When idempotency keys are past their 24 hours, then the worker prunes them by itself from its start; current ones stay', async () => {
    const { h, prefix } = world;
    const scope = `key:${randomUUID()}/location:${randomUUID()}`;
    // Kept answers as the API stores them: one whose 24 hours ended a minute ago, one current.
    await h.db.dataSource.query(
      `INSERT INTO idempotency_keys (scope, key, fingerprint, claim, created_at, expires_at, locked_until,
                                     response_status, response_body)
       VALUES ($1, 'expired', 'f', 'c', now() - interval '1 day 1 minute', now() - interval '1 minute',
               now() - interval '1 day', 201, 'v1.x.y.z'),
              ($1, 'current', 'f', 'c', now(), now() + interval '1 day', now() + interval '30 seconds',
               201, 'v1.x.y.z')`,
      [scope],
    );
    const keys = async () =>
      (
        (await h.db.dataSource.query(`SELECT key FROM idempotency_keys WHERE scope = $1 ORDER BY key`, [
          scope,
        ])) as { key: string }[]
      ).map((r) => r.key);

    world.worker = await WorkerProcess.start(workerEnv(h, SHARED_REDIS_URL, prefix));
    const pruned = '"msg":"idempotency keys past their 24 hours pruned"';
    // The prune commits before its log line is written, and the line reaches this process
    // through the child's pipe later still: wait for both.
    const deadline = Date.now() + 30_000;
    while (((await keys()).length > 1 || !world.worker.log.includes(pruned)) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }

    expect(await keys()).toEqual(['current']);
    expect(world.worker.log).toContain(pruned);
  });
});
