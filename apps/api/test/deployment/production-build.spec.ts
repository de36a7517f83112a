import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import request from 'supertest';
import { createTestDatabase, type TestDatabase } from '@pis/persistence/test-support';
import { dropPrefix, REDIS_URL, testPrefix } from '@pis/testing/webhooks';
import { WorkerProcess } from '@pis/testing/worker';
import { ApiProcess } from '../support/api-process';
import { deploymentEnv, hookedLocation, metricsPortOf, START_TIMEOUT_MS } from '../support/deployment';
import { Receiver, verified } from '../support/receiver';

jest.setTimeout(240_000);

const ROOT = join(__dirname, '../../../..');
const BUNDLES = ['apps/api/dist/main.js', 'apps/worker/dist/main.js'];

/**
 * README, Deploy: `pnpm build`, then `node apps/api/dist/main.js` and `node
 * apps/worker/dist/main.js`, plain node on the bundles: no install, no build, no tsx.
 */
describe('the production start from the built bundles', () => {
  const prefix = testPrefix('production');
  let db: TestDatabase;
  let receiver: Receiver;
  let api: ApiProcess;
  let worker: WorkerProcess;

  beforeAll(async () => {
    db = await createTestDatabase({ poolSize: 1 });
    receiver = await Receiver.start();
  });
  afterAll(async () => {
    await worker?.stop('SIGTERM');
    await api?.stop('SIGTERM');
    await receiver?.close();
    await db?.drop();
    await dropPrefix(prefix);
  });

  it('When pnpm build has bundled the apps, then node runs each bundle and the deployment answers /readyz and delivers a signed webhook', async () => {
    // The bundling half of `pnpm build` (its other half is the type-check every test run makes).
    const buildScript = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).scripts.build as string;
    expect(buildScript).toContain('node tools/scripts/build-apps.mjs');
    const built = spawnSync(process.execPath, ['tools/scripts/build-apps.mjs'], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    expect(built.stderr).toBe('');
    expect(built.status).toBe(0);
    for (const bundle of BUNDLES) expect(existsSync(join(ROOT, bundle))).toBe(true);

    const env = deploymentEnv(db.url, { REDIS_URL, WEBHOOK_QUEUE_PREFIX: prefix, WORKER_METRICS_PORT: '0' });
    api = await ApiProcess.start(env, START_TIMEOUT_MS, [BUNDLES[0]!]);
    worker = await WorkerProcess.start(env, START_TIMEOUT_MS, [BUNDLES[1]!]);
    const workerUrl = `http://127.0.0.1:${metricsPortOf(worker.log)}`;

    const apiReady = await request(api.baseUrl).get('/readyz');
    const workerReady = await request(workerUrl).get('/readyz');
    const location = await hookedLocation(api, receiver);
    const delivered = await receiver.until(
      () => receiver.at(location.path)[0],
      30_000,
      'floorplan.published',
    );

    expect(apiReady.status).toBe(200);
    expect(apiReady.body).toEqual({ status: 'ready' });
    expect(workerReady.status).toBe(200);
    expect(verified(delivered, location.secret)).toMatchObject({
      type: 'floorplan.published',
      data: { version: 1, locationEventSequence: 1 },
    });
    expect(await worker.stop('SIGTERM')).toBe(0);
    expect(await api.stop('SIGTERM')).toBe(0);
  });
});
