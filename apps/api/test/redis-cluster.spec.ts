import { randomUUID } from 'node:crypto';
import type { Response } from 'supertest';
import { testPrefix } from '@pis/testing/webhooks';
import { RedisTestCluster } from '@pis/webhooks/test-support';
import { RedisWritePositions } from '../src/redis-write-positions';
import { expectEnvelope } from './support/envelope';
import { Harness } from './support/harness';
import { P } from './support/wire';

/**
 * The API's Redis users on a real Redis Cluster (`REDIS_CLUSTER_NODES`, decision 0190): the
 * per-key rate limit shared by two API instances (docs/reference/limits-and-formats.md#rate-limit),
 * and the write positions of the read replica. One cluster for the file.
 */
jest.setTimeout(60_000);

const RPS = 6;
/** Requests per two-second window: a burst of twice the rate. */
const WINDOW = 2 * RPS;
/** The limiter's window (`RATE_WINDOW_SECONDS` in the rate limiter). */
const WINDOW_MS = 2_000;
let h: Harness;
let cluster: RedisTestCluster;

beforeAll(async () => {
  [h, cluster] = await Promise.all([Harness.start(), RedisTestCluster.start()]);
}, 90_000);
afterAll(async () => {
  await h?.stop();
  await cluster?.destroy();
});

const statuses = (answers: Response[]) => answers.map((r) => r.status).sort();

it('When two API instances share a Redis Cluster, then each key gets one limit across both, the keys spread over the masters, and no command crossed slots or went to the wrong master', async () => {
  const env = {
    REDIS_CLUSTER_NODES: cluster.nodes,
    RATE_LIMIT_RPS: String(RPS),
    RATE_LIMIT_PREFIX: testPrefix('rate'),
  };
  const apis = await Promise.all([Harness.beside(h, env), Harness.beside(h, env)]);
  try {
    const locationKeys = () =>
      Promise.all([0, 1, 2, 3, 4, 5].map(async () => (await h.location({ plan: 'none' })).key));
    /** Every key's burst at once, alternating between the two APIs. */
    const bursts = (keys: string[]) =>
      Promise.all(
        keys.map((key) =>
          Promise.all(
            Array.from({ length: 2 * WINDOW }, (_, i) =>
              apis[i % 2]!.client(key).get(`${P}/webhook-deliveries`),
            ),
          ),
        ),
      );
    // A client's first command to a master it has no connection to yet may be redirected
    // once (MOVED) while it opens one: the steady state is what is counted below.
    await bursts(await locationKeys());
    // A key's window opens at its first request and lasts two seconds: bursts that a busy
    // machine could not answer within it fall partly into the next window and mean nothing, so
    // they are sent again with fresh keys (the premise failed, not the limit).
    let answers: Response[][] = [];
    let counting = 0;
    let before: Record<string, number> = {};
    for (let attempt = 1; attempt <= 5; attempt++) {
      const keys = await locationKeys();
      before = await cluster.errorReplies();
      const started = Date.now();
      answers = await bursts(keys);
      // Counted at once: a counter lives as long as its two-second window.
      counting = await cluster.mastersWithKeys(`${env.RATE_LIMIT_PREFIX}:*`);
      if (Date.now() - started < WINDOW_MS - 200) break;
    }

    for (const perKey of answers) {
      expect(statuses(perKey)).toEqual([...Array(WINDOW).fill(200), ...Array(WINDOW).fill(429)]);
      for (const refused of perKey.filter((r) => r.status === 429))
        expectEnvelope(refused, 429, 'rate_limited');
    }
    const after = await cluster.errorReplies();
    expect(after['CROSSSLOT'] ?? 0).toBe(0);
    // One counting command per request. A client that routed by the wrong slot map would be
    // redirected for most of them (two masters in three do not hold a given slot); a command
    // retried after a connection hiccup (which a busy machine causes) goes to a random node
    // first and may be redirected once: a few, not a stream.
    const requests = answers.flat().length;
    expect((after['MOVED'] ?? 0) - (before['MOVED'] ?? 0)).toBeLessThanOrEqual(requests / 20);
    // Each counter is its own key in its own slot: the masters share the counting.
    expect(counting).toBeGreaterThan(1);
  } finally {
    await Promise.all(apis.map((api) => api.stop()));
  }
});

it('When two API processes record write positions of one location on a Redis Cluster, then both read the largest', async () => {
  const prefix = testPrefix('wal');
  const [one, two] = [0, 1].map(
    () => new RedisWritePositions({ redis: cluster.target, maxLagMs: 1_000, prefix }),
  );
  try {
    const location = randomUUID();
    for (const p of [one!, two!]) {
      for (;;) {
        if (
          (await p.latest(location).then(
            () => true,
            () => false,
          )) === true
        )
          break;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    }

    await one!.record(location, 5_000);
    await two!.record(location, 9_000);
    await one!.record(location, 7_000);

    expect(await one!.latest(location)).toBe(9_000);
    expect(await two!.latest(location)).toBe(9_000);
    expect(await two!.latest(randomUUID())).toBe(0);
  } finally {
    await Promise.all([one!.close(), two!.close()]);
  }
});
