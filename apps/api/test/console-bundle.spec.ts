import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { bundleConsole } from '@pis/console';
import { createTestDatabase, type TestDatabase } from '@pis/persistence/test-support';
import { ApiProcess } from './support/api-process';

/**
 * The production path of the console: `pnpm start` (and the production build) bundle the API
 * with tools/scripts/build-apps.mjs, which builds the console into that bundle. The bundled
 * API must serve the same console as the sources, without a bundler at run time.
 */
const ROOT = join(__dirname, '../../..');
const TOKEN = 'console-bundle-backoffice-token-0123';

let db: TestDatabase;
let api: ApiProcess | undefined;
beforeAll(async () => {
  db = await createTestDatabase();
}, 60_000);
afterAll(async () => {
  await api?.stop('SIGTERM');
  await db?.drop();
});

it('When the API runs from the bundle pnpm start builds, then it serves the console built from the sources', async () => {
  await promisify(execFile)(process.execPath, ['tools/scripts/build-apps.mjs', 'apps/api'], { cwd: ROOT });
  api = await ApiProcess.start(
    { DATABASE_URL: db.url, BACKOFFICE_TOKEN: TOKEN, LOG_LEVEL: 'silent' },
    30_000,
    ['apps/api/dist/main.js'],
  );

  const expected = await bundleConsole();
  const request = (path: string) => fetch(`${api!.baseUrl}${path}`);
  const page = await request('/console');
  const script = await request('/console/assets/console.js');
  const style = await request('/console/assets/console.css');

  expect([page.status, script.status, style.status]).toEqual([200, 200, 200]);
  expect(await page.text()).toContain('/console/assets/console.js');
  expect(await script.text()).toBe(expected.js);
  expect(await style.text()).toBe(expected.css);
}, 120_000);
