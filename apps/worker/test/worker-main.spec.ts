import {
  appendEvents,
  deliveries,
  givenEndpoint,
  givenLocation,
  oneEventOfEveryType,
  openHarness,
  type Harness,
} from '../../../packages/webhooks/test/support/harness';
import { Receiver, verify } from '../../../packages/webhooks/test/support/receiver';
import { dropPrefix, testPrefix } from '../../../packages/webhooks/test/support/redis';
import { BACKOFFICE_TOKEN, SHARED_REDIS_URL, workerEnv } from './support/worker-env';
import { WorkerProcess } from './support/worker-process';

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

describe('the worker process', () => {
  const prefix = testPrefix('worker-main');
  let h: Harness;
  let receiver: Receiver;
  let worker: WorkerProcess | null = null;

  beforeAll(async () => {
    h = await openHarness();
    receiver = await Receiver.start();
  });
  afterAll(async () => {
    await worker?.stop('SIGKILL');
    await receiver?.close();
    await dropPrefix(prefix);
    await h?.close();
  });

  it('When events commit, then the worker delivers each, signed; on SIGTERM it finishes the attempt in flight and exits 0; its log holds no secret', async () => {
    const locationId = await givenLocation(h);
    const endpoint = await givenEndpoint(h, locationId, receiver.url);
    const secret = endpoint.secrets[0]!.secret;
    worker = await WorkerProcess.start(workerEnv(h, SHARED_REDIS_URL, prefix));

    const stored = await appendEvents(h, locationId, oneEventOfEveryType());
    await receiver.waitFor(() => receiver.ids().size === 4);
    receiver.respond = () => ({ status: 204, delayMs: 700 });
    await appendEvents(h, locationId, oneEventOfEveryType().slice(0, 1));
    await receiver.waitFor(() => receiver.ids().size === 5);
    const code = await worker.stop('SIGTERM');
    const done = await deliveries(h, locationId);

    expect(code).toBe(0);
    expect(receiver.requests.slice(0, 4).map((r) => verify(r, secret))).toEqual(
      expect.arrayContaining(
        stored.map((e) => ({
          type: e.type,
          timestamp: e.occurredAt.toIso(),
          data: { ...e.data, locationEventSequence: e.sequence },
        })),
      ),
    );
    expect(done.map((d) => d.status)).toEqual(Array(5).fill('succeeded'));
    expect(worker.log).toContain('"msg":"webhook attempt"');
    for (const secretValue of [secret, h.secretsKey, BACKOFFICE_TOKEN])
      expect(worker.log).not.toContain(secretValue);
  });
});
