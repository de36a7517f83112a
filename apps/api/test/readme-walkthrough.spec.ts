import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './support/api-process';

const ROOT = join(__dirname, '../../..');

/** The README's walkthrough block, as a newcomer pastes it. */
function walkthroughScript(): string {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const block = /<!-- walkthrough:start -->\s*```sh\n([\s\S]*?)```\s*<!-- walkthrough:end -->/.exec(readme);
  if (!block) throw new Error('README.md has no walkthrough block');
  return block[1]!;
}

/** Starts `pnpm start`'s entry point on a fresh DATA_DIR and collects the export lines it prints. */
async function startEmbeddedApi(
  dataDir: string,
  port: number,
): Promise<{ child: ChildProcess; env: Record<string, string> }> {
  // One process (no npx/tsx wrapper), in its own group, so a kill reaches all of it.
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/api/src/main.ts'], {
    cwd: ROOT,
    detached: true,
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: String(port),
      WEBHOOK_ALLOW_INSECURE_URLS: 'true',
      WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
      LOG_LEVEL: 'warn',
      DATABASE_URL: '',
      REDIS_URL: '',
      BACKOFFICE_TOKEN: '',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const env = await new Promise<Record<string, string>>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`the API did not print its credentials:\n${output}`)),
      90_000,
    );
    child.stdout!.on('data', () => {
      if (!output.includes('export API_KEY=')) return;
      clearTimeout(timer);
      resolve(Object.fromEntries([...output.matchAll(/export (\w+)=(\S+)/g)].map((m) => [m[1]!, m[2]!])));
    });
    child.once('exit', (code) => reject(new Error(`the API exited with ${code}:\n${output}`)));
  });
  return { child, env };
}

describe('the README walkthrough', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'pis-walkthrough-'));
  let api: ChildProcess | null = null;
  afterAll(() => {
    if (api?.pid) process.kill(-api.pid, 'SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('When a newcomer pastes the walkthrough into a shell against a fresh `pnpm start`, then every step answers as described', async () => {
    const started = await startEmbeddedApi(dataDir, await freePort());
    api = started.child;
    expect(Object.keys(started.env).sort()).toEqual(['API_KEY', 'BACKOFFICE_TOKEN', 'LOCATION_ID', 'PIS']);

    const receiverPort = await freePort();
    const script = walkthroughScript()
      .replaceAll('4000', String(receiverPort))
      .replaceAll('/tmp/pis-', `${dataDir}/walk-`);
    const run = spawnSync('bash', ['-e', '-c', script], {
      cwd: ROOT,
      env: { ...process.env, ...started.env },
      encoding: 'utf8',
      timeout: 90_000,
    });
    const out = run.stdout;
    expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: expect.any(String) });

    expect(out).toContain('"mapping":[{"externalTableId":"T1"');
    expect(out).toContain('{"version":1,"publishedAt":');
    expect(out.match(/"outcome":"applied"/g)).toHaveLength(4); // create, seat, move, cancel
    expect(out).toContain('"outcome":"stale"');
    expect(out).toMatch(
      /"code":"table_occupied".*"occupiedBy":\{"orderId":"[0-9a-f-]{36}","reservationExternalId":null\}/,
    );
    expect(out).toContain('"status":"cancelled"');
    expect(out).toMatch(/"reservations":\[\{"id":"[0-9a-f-]{36}","externalId":"r-1001","status":"cancelled"/);
    expect(out).toContain('verified floorplan.published');
    expect(out).toMatch(/verified table\.occupied .*"reservationExternalId":"r-1001"/);
    expect(out).toMatch(/verified table\.freed .*"reason":"moved"/);
    expect(out).toMatch(/verified table\.spend_updated .*"covers":3/);
    // The till part: the deposit from seating, an item, a payment with a tip, the close.
    expect(out).toMatch(/"tender":"deposit"/);
    expect(out).toMatch(
      /"status":"closed".*"check":\{.*"tipMinor":500,"tender":"card".*"subtotalMinor":9000,"discountMinor":0,"taxMinor":818,"totalMinor":9000,"tipMinor":500,"paidMinor":9000,"balanceMinor":0\}/,
    );
    // Webhook bodies keep no key order (the outbox stores them as jsonb): look ahead for each field.
    expect(out).toMatch(/verified table\.spend_updated (?=.*"subtotalMinor":9000)(?=.*"paidMinor":9000)/);
    expect(out).toMatch(
      /verified order\.closed (?=.*"reservationExternalId":"r-1001")(?=.*"tender":"deposit")(?=.*"balanceMinor":0)/,
    );
    expect(out).not.toContain('refused a delivery');

    // Graceful shutdown on SIGTERM.
    const exited = new Promise<number | null>((resolve) => api!.once('exit', (code) => resolve(code)));
    api.kill('SIGTERM');
    expect(await exited).toBe(0);
    api = null;
  }, 200_000);
});
