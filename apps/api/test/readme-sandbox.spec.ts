import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './support/api-process';
import { Harness, WITHOUT_WEBHOOK_FLAGS } from './support/harness';
import { expectStoppedLoudly, paste, readmeBlock } from './support/readme';
import { BACKOFFICE_TOKEN } from './support/test-api';

/** The block with its receiver on a free port (4001 may be taken on a test machine). */
async function sandboxBlock(): Promise<string> {
  return readmeBlock('sandbox').replaceAll('4001', String(await freePort()));
}

/**
 * README "Sandbox": the block, pasted twice into bash against a running API with in-process
 * delivery, creates its own sandbox location each time and drives every step as described;
 * against an API without the two webhook flags it stops before it creates anything.
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
      const result = await paste(await sandboxBlock(), {
        PIS: h.api.baseUrl,
        BACKOFFICE_TOKEN,
        API_KEY: live.key,
        TMPDIR: dir,
      });
      const out = result.stdout;

      expect({ run, status: result.status, stderr: result.stderr }).toEqual({ run, status: 0, stderr: '' });
      expect(out).toContain('demo_sk_test_');
      expect(out).toMatch(/\{"delivered":true,"status":204,"durationMs":\d+,"error":null\}/);
      expect(out).toContain('{"version":1,"publishedAt":');
      expect(out).toMatch(/"spendMinor":2400/);
      expect(out).toMatch(/"status":"closed"/);
      expect(out).toMatch(/answered 403: \{"error":\{"code":"sandbox_only"/);
      expect(out).toMatch(/x-ratelimit-limit: \d+/i);
      expect(out).toContain('verified webhook.test {}');
      expect(out).toContain('verified floorplan.published');
      expect(out).toMatch(/verified table\.occupied .*"reservationExternalId":null/);
      expect(out).toMatch(/verified table\.spend_updated .*"spendMinor":2400/);
      expect(out).toMatch(/verified table\.freed .*"reason":"closed"/);
      expect(out).toMatch(/verified order\.closed /);
      expect(out).not.toContain('refused a delivery');
    }
  }, 200_000);

  it('When the block is pasted against an API started without the two webhook flags, then it exits non-zero at once naming them, and creates no location', async () => {
    const strict = await Harness.beside(h, WITHOUT_WEBHOOK_FLAGS);
    try {
      const live = await h.location({ plan: 'none' });
      const countLocations = async () =>
        (await h.db.database.query<{ n: number }>('SELECT count(*)::int AS n FROM locations'))[0]!.n;
      const before = await countLocations();

      const pasted = await paste(await sandboxBlock(), {
        PIS: strict.api.baseUrl,
        BACKOFFICE_TOKEN,
        API_KEY: live.key,
        TMPDIR: dir,
      });

      expectStoppedLoudly(
        pasted,
        /refuses plain-HTTP and loopback webhook URLs[\s\S]*WEBHOOK_ALLOW_INSECURE_URLS=true WEBHOOK_ALLOW_PRIVATE_URLS=true pnpm start/,
      );
      expect(pasted.stdout).toBe('');
      expect(await countLocations()).toEqual(before);
    } finally {
      await strict.stop();
    }
  }, 60_000);
});
