import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { freePort } from './support/api-process';
import { Harness, WITHOUT_WEBHOOK_FLAGS } from './support/harness';
import { expectStoppedLoudly, paste, readmeBlock } from './support/readme';
import { BACKOFFICE_TOKEN } from './support/test-api';
import { P } from './support/wire';

const ROOT = join(__dirname, '../../..');

/**
 * The block with its receiver on another port (4000 may be taken on a test machine); the
 * walkthrough and the recovery block share theirs, as in the README.
 */
let receiverPort: Promise<number> | null = null;
async function block(name: string): Promise<string> {
  receiverPort ??= freePort();
  return readmeBlock(name).replaceAll('4000', String(await receiverPort));
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
  // The blocks' scratch folders go under TMPDIR.
  const scratch = mkdtempSync(join(tmpdir(), 'pis-walkthrough-scratch-'));
  let api: ChildProcess | null = null;
  afterAll(() => {
    if (api?.pid) process.kill(-api.pid, 'SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(scratch, { recursive: true, force: true });
  });

  it('When a newcomer pastes the walkthrough, then the recovery block, each twice, into a shell against a fresh `pnpm start`, then every step answers as described the first time, a second walkthrough stops at once with draft_not_empty, and recovery works again', async () => {
    const started = await startEmbeddedApi(dataDir, await freePort());
    api = started.child;
    expect(Object.keys(started.env).sort()).toEqual(['API_KEY', 'BACKOFFICE_TOKEN', 'LOCATION_ID', 'PIS']);
    const env = { ...started.env, TMPDIR: scratch };
    const run = join(scratch, `pis-walkthrough-${started.env['LOCATION_ID']}`);
    const endpoint = () =>
      request(started.env['PIS']!)
        .get(`${P}/webhook-endpoint`)
        .set('Authorization', `Bearer ${started.env['API_KEY']}`);

    const first = await paste(await block('walkthrough'), env);
    const out = first.stdout;
    expect({ status: first.status, stderr: first.stderr }).toEqual({ status: 0, stderr: '' });
    expect(out).toContain('"mapping":[{"externalTableId":"T1"');
    expect(out).toContain('{"version":1,"publishedAt":');
    expect(out.match(/"outcome":"applied"/g)).toHaveLength(4); // create, seat, move, cancel
    expect(out).toContain('"outcome":"stale"');
    expect(out).toMatch(
      /answered 409: \{"error":\{"code":"table_occupied".*"occupiedBy":\{"orderId":"[0-9a-f-]{36}","reservationExternalId":null\}/,
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
    // Every event of the walkthrough reached the receiver once (sequences 1 to 11, in any order).
    const sequences = [...out.matchAll(/^verified \S+ .*"locationEventSequence":(\d+)/gm)].map((m) =>
      Number(m[1]),
    );
    expect(sequences.sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    expect(out).not.toContain('refused a delivery');
    const mapping = readFileSync(join(run, 'mapping.json'), 'utf8');
    expect(JSON.parse(mapping).mapping).toHaveLength(8);
    const secret = (await endpoint().expect(200)).body.secret as string;

    const recovered = await paste(await block('recovery'), env);
    expect({ status: recovered.status, stderr: recovered.stderr }).toEqual({ status: 0, stderr: '' });
    expect(recovered.stdout).toMatch(
      /^1 free, 2 occupied, 3 free, 4 free, 5 free, 6 free, P1 free, P2 free$/m,
    );
    expect(recovered.stdout).toMatch(/^as of 11$/m);
    expect(recovered.stdout).toMatch(/^12 table\.occupied [0-9a-f-]{36}\n13 table\.freed [0-9a-f-]{36}$/m);
    expect(recovered.stdout).toContain('{"queued":2}');
    expect(recovered.stdout).toMatch(/^verified table\.occupied .*"locationEventSequence":12/m);
    expect(recovered.stdout).toMatch(
      /^verified table\.freed (?=.*"reason":"voided")(?=.*"locationEventSequence":13)/m,
    );

    // Pasted again: it stops at its first call, says why, and changes nothing.
    const again = await paste(await block('walkthrough'), env);
    expectStoppedLoudly(
      again,
      /POST \S+\/floorplan\/import answered 409: \{"error":\{"code":"draft_not_empty"/,
    );
    expect(again.stdout).toBe('');
    expect(readFileSync(join(run, 'mapping.json'), 'utf8')).toBe(mapping);
    expect((await endpoint().expect(200)).body.secret).toBe(secret);

    // The recovery block leaves table 4 free, so it works again.
    const recoveredAgain = await paste(await block('recovery'), env);
    expect({ status: recoveredAgain.status, stderr: recoveredAgain.stderr }).toEqual({
      status: 0,
      stderr: '',
    });
    expect(recoveredAgain.stdout).toContain('{"queued":2}');
    expect(recoveredAgain.stdout).toMatch(/^verified table\.freed .*"locationEventSequence":15/m);

    // Graceful shutdown on SIGTERM.
    const exited = new Promise<number | null>((resolve) => api!.once('exit', (code) => resolve(code)));
    api.kill('SIGTERM');
    expect(await exited).toBe(0);
    api = null;
  }, 300_000);
});

/**
 * The API of "The two commands", started without the two webhook flags: every block that
 * runs a receiver on 127.0.0.1 stops before it changes anything, saying how to restart.
 */
describe('the README blocks against an API without the webhook flags', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'pis-walkthrough-strict-'));
  let strict: Harness;
  beforeAll(async () => {
    strict = await Harness.start(WITHOUT_WEBHOOK_FLAGS);
  });
  afterAll(async () => {
    await strict?.stop();
    rmSync(scratch, { recursive: true, force: true });
  });

  it('When the walkthrough and the recovery block are pasted, then each exits non-zero at once naming the two flags, and the location is as it was', async () => {
    const loc = await strict.location({ plan: 'none' });
    const env = {
      PIS: strict.api.baseUrl,
      API_KEY: loc.key,
      BACKOFFICE_TOKEN,
      LOCATION_ID: loc.id,
      TMPDIR: scratch,
    };

    for (const name of ['walkthrough', 'recovery']) {
      const pasted = await paste(await block(name), env);

      expectStoppedLoudly(
        pasted,
        /refuses plain-HTTP and loopback webhook URLs[\s\S]*WEBHOOK_ALLOW_INSECURE_URLS=true WEBHOOK_ALLOW_PRIVATE_URLS=true pnpm start/,
      );
      expect({ name, stdout: pasted.stdout }).toEqual({ name, stdout: '' });
    }
    expect((await strict.operator.get(loc.ops('/floorplan/working')).expect(200)).body.status).toBe('empty');
    await loc.api.get(`${P}/webhook-endpoint`).expect(404);
  });

  it('When a block registers the endpoint anyway, then the 422 stops it with validation_failed on screen and no receiver starts with an undefined secret', async () => {
    const loc = await strict.location({ plan: 'none' });
    const script = `bash -euo pipefail <<'EOF'
. examples/helpers.sh
P=$PIS/api/provider/v1
SECRET=$(api -X PUT $P/webhook-endpoint -d '{"url":"http://127.0.0.1:4000/hooks"}' | field .secret)
receiver 4000 "$SECRET" "$TMPDIR/webhooks.log"
echo "the receiver started"
EOF`;

    const pasted = await paste(script, { PIS: strict.api.baseUrl, API_KEY: loc.key, TMPDIR: scratch });

    expectStoppedLoudly(
      pasted,
      /PUT \S+\/webhook-endpoint answered 422: \{"error":\{"code":"validation_failed"/,
    );
    expect(pasted.stdout).toBe('');
  });

  it('When the webhook receiver is started without a whsec_ secret, then it exits at once saying so', () => {
    for (const secret of ['', 'undefined', '{"error":{"code":"validation_failed"}}']) {
      const run = spawnSync(process.execPath, ['--import', 'tsx', 'tools/webhook-receiver/src/receiver.ts'], {
        cwd: ROOT,
        env: { ...process.env, WEBHOOK_SECRET: secret, PORT: '0' },
        encoding: 'utf8',
        timeout: 60_000,
      });

      expect({ secret, status: run.status, stderr: run.stderr }).toEqual({
        secret,
        status: 2,
        stderr: expect.stringContaining('WEBHOOK_SECRET must be the whsec_... secret'),
      });
    }
  });
});
