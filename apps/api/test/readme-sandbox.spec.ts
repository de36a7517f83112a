import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './support/api-process';
import { Harness } from './support/harness';
import { BACKOFFICE_TOKEN } from './support/test-api';

const ROOT = join(__dirname, '../../..');

/** The README's sandbox block, as a provider pastes it. */
function sandboxScript(): string {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const block = /<!-- sandbox:start -->\s*```sh\n([\s\S]*?)```\s*<!-- sandbox:end -->/.exec(readme);
  if (!block) throw new Error('README.md has no sandbox block');
  return block[1]!;
}

/** Runs `script` in bash without blocking this process (the API under test runs in it). */
function bash(
  script: string,
  env: NodeJS.ProcessEnv,
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const child = spawn('bash', ['-e', '-c', script], { cwd: ROOT, env });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const timer = setTimeout(() => child.kill('SIGKILL'), 90_000);
  return new Promise((resolve) =>
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    }),
  );
}

/**
 * README "Sandbox": the block, pasted twice into bash against a running API with in-process
 * delivery, creates its own sandbox location each time and drives every step as described.
 */
describe('the README sandbox walkthrough', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pis-readme-sandbox-'));
  let h: Harness;
  beforeAll(async () => {
    h = await Harness.start({ WEBHOOK_RETRY_DELAYS_MS: '100,100', RATE_LIMIT_RPS: '100' });
    await h.runtime.start();
  });
  afterAll(async () => {
    await h?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('When the block is pasted twice, then each run makes a sandbox location, tests the receiver, drives the simulator and verifies every webhook', async () => {
    const live = await h.location({ plan: 'none' });
    for (const run of [1, 2]) {
      const script = sandboxScript()
        .replaceAll('4001', String(await freePort()))
        .replaceAll('/tmp/pis-', `${dir}/run${run}-`);
      const result = await bash(script, {
        ...process.env,
        PIS: h.api.baseUrl,
        BACKOFFICE_TOKEN,
        API_KEY: live.key,
      });
      const out = result.stdout;

      expect({ run, status: result.status, stderr: result.stderr }).toEqual({
        run,
        status: 0,
        stderr: expect.any(String),
      });
      expect(out).toContain('demo_sk_test_');
      expect(out).toMatch(/\{"delivered":true,"status":204,"durationMs":\d+,"error":null\}/);
      expect(out).toContain('{"version":1,"publishedAt":');
      expect(out).toMatch(/"spendMinor":2400/);
      expect(out).toMatch(/"status":"closed"/);
      expect(out).toContain('"code":"sandbox_only"');
      expect(out).toMatch(/x-ratelimit-limit: \d+/i);
      expect(out).toContain('verified webhook.test {}');
      expect(out).toContain('verified floorplan.published');
      expect(out).toMatch(/verified table\.occupied .*"reservationExternalId":null/);
      expect(out).toMatch(/verified table\.spend_updated .*"spendMinor":2400/);
      expect(out).toMatch(/verified table\.freed .*"reason":"closed"/);
      expect(out).not.toContain('refused a delivery');
    }
  }, 200_000);
});
