import { Writable } from 'node:stream';
import type { Response } from 'supertest';
import { createLogger } from '@pis/runtime';
import { dropPrefix, REDIS_URL, testPrefix } from '@pis/testing/webhooks';
import { OwnRedis } from '@pis/testing/webhooks';
import { expectEnvelope } from './support/envelope';
import { Harness } from './support/harness';
import { WITHOUT_REDIS } from './support/test-api';
import { P } from './support/wire';

/**
 * docs/reference/limits-and-formats.md#rate-limit with `REDIS_URL`: two API instances on one
 * database and one Redis share each key's limit; without Redis each counts alone; a Redis
 * that goes away leaves every instance counting alone (decision 0111), and it shares again
 * once Redis is back.
 */
jest.setTimeout(60_000);

const RPS = 6;
/** Requests per two-second window: a burst of twice the rate. */
const WINDOW = 2 * RPS;
/** The limiter's window (`RATE_WINDOW_SECONDS` in the rate limiter). */
const WINDOW_MS = 2_000;
let h: Harness;
const prefixes: string[] = [];
beforeAll(async () => {
  h = await Harness.start();
});
afterAll(async () => {
  await h?.stop();
  for (const prefix of prefixes) await dropPrefix(prefix);
});

function logLines() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  return { logger: createLogger('info', stream), lines };
}

/** Two more APIs on the harness's database with these settings. */
async function twoApis(env: Record<string, string>, logger?: ReturnType<typeof createLogger>) {
  return Promise.all([Harness.beside(h, env, logger), Harness.beside(h, env, logger)]);
}

/** `count` requests of one key at once, alternating between the APIs. */
async function sendAtOnce(apis: Harness[], key: string, count: number): Promise<Response[]> {
  return Promise.all(
    Array.from({ length: count }, (_, i) =>
      apis[i % apis.length]!.client(key).get(`${P}/webhook-deliveries`),
    ),
  );
}

/**
 * `count` requests of one key at once, all answered within one window. A window opens at a
 * key's first request and lasts two seconds; on a machine busy enough that the burst takes
 * longer than that, its tail falls into the next window and the counts mean nothing. Such a
 * burst is sent again once the window it opened has ended (the premise, not the limit, failed).
 */
async function burst(apis: Harness[], key: string, count: number): Promise<Response[]> {
  for (let attempt = 1; ; attempt++) {
    const started = Date.now();
    const answers = await sendAtOnce(apis, key, count);
    const took = Date.now() - started;
    if (took < WINDOW_MS - 200 || attempt === 5) return answers;
    await new Promise((resolve) => setTimeout(resolve, WINDOW_MS + 100));
  }
}

const statuses = (answers: Response[]) => answers.map((r) => r.status).sort();
const remaining = (answers: Response[]) =>
  answers
    .filter((r) => r.status === 200)
    .map((r) => Number(r.headers['x-ratelimit-remaining']))
    .sort((a, b) => a - b);

it('When two API instances share REDIS_URL, then one key gets one limit across both, and each answer counts down from it', async () => {
  const prefix = testPrefix('rate');
  prefixes.push(prefix);
  const apis = await twoApis({ REDIS_URL, RATE_LIMIT_RPS: String(RPS), RATE_LIMIT_PREFIX: prefix });
  try {
    const loc = await h.location({ plan: 'none' });

    const answers = await burst(apis, loc.key, 2 * WINDOW);

    expect(statuses(answers)).toEqual([...Array(WINDOW).fill(200), ...Array(WINDOW).fill(429)]);
    expect(remaining(answers)).toEqual(Array.from({ length: WINDOW }, (_, i) => i));
    for (const refused of answers.filter((r) => r.status === 429)) {
      expectEnvelope(refused, 429, 'rate_limited');
      expect(refused.headers).toMatchObject({
        'x-ratelimit-limit': String(WINDOW),
        'x-ratelimit-remaining': '0',
      });
    }
  } finally {
    await Promise.all(apis.map((api) => api.stop()));
  }
});

it('When two API instances have no Redis, then each counts a key alone', async () => {
  // No Redis, also in a run that gives every API a Redis Cluster (`pnpm test:scaled-out`).
  const apis = await twoApis({ ...WITHOUT_REDIS, RATE_LIMIT_RPS: String(RPS) });
  try {
    const loc = await h.location({ plan: 'none' });

    const answers = await burst(apis, loc.key, 2 * WINDOW);

    expect(statuses(answers)).toEqual(Array(2 * WINDOW).fill(200));
  } finally {
    await Promise.all(apis.map((api) => api.stop()));
  }
});

it('When Redis goes away, then requests still pass, counted per instance with one warning, and the limit is shared again with one info line once Redis is back', async () => {
  const redis = await OwnRedis.start();
  const { logger, lines } = logLines();
  const apis = await twoApis(
    { REDIS_URL: redis.url, RATE_LIMIT_RPS: String(RPS), LOG_LEVEL: 'info' },
    logger,
  );
  const limitLines = () => lines.filter((l) => String(l['msg']).startsWith('rate limit:'));
  try {
    const loc = await h.location({ plan: 'none' });
    expect(statuses(await burst(apis, loc.key, 2 * WINDOW))).toEqual([
      ...Array(WINDOW).fill(200),
      ...Array(WINDOW).fill(429),
    ]);

    await redis.down();
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    const without = await burst(apis, loc.key, 2 * WINDOW);

    expect(statuses(without)).toEqual(Array(2 * WINDOW).fill(200));
    expect(without.every((r) => r.headers['x-ratelimit-limit'] === String(WINDOW))).toBe(true);
    expect(limitLines().map((l) => [l['level'], l['msg']])).toEqual([
      [40, 'rate limit: Redis is unavailable; counting each key per API process until it is back'],
      [40, 'rate limit: Redis is unavailable; counting each key per API process until it is back'],
    ]);

    await redis.up();
    const deadline = Date.now() + 20_000;
    while (limitLines().length < 4 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 2_100));
      await burst(apis, loc.key, 2);
    }
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    const again = await burst(apis, loc.key, 2 * WINDOW);

    expect(
      limitLines()
        .slice(2)
        .map((l) => l['level']),
    ).toEqual([30, 30]);
    expect(statuses(again)).toEqual([...Array(WINDOW).fill(200), ...Array(WINDOW).fill(429)]);
  } finally {
    await Promise.all(apis.map((api) => api.stop()));
    await redis.down();
  }
});
