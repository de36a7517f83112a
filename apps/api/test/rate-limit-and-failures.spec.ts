import { Writable } from 'node:stream';
import { Client as PgClient } from 'pg';
import type { Response } from 'supertest';
import { createLogger } from '@pis/runtime';
import { expectEnvelope } from './support/envelope';
import { Harness, type TestLocation } from './support/harness';
import { B, P, reservation } from './support/wire';

/**
 * docs/reference/errors.md: rate_limited and internal_error: 429 rate_limited with Retry-After (a
 * second API with a small RATE_LIMIT_RPS), and 500/503 internal_error that never show internals (an
 * API whose database goes away, or whose schema is broken under it).
 */
let h: Harness;
beforeAll(async () => {
  h = await Harness.start();
});
afterAll(async () => {
  await h?.stop();
});

/** Log lines of one API, parsed. */
function memoryLogger() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  return { logger: createLogger('error', stream), lines };
}

describe('429 rate_limited', () => {
  let limited: Harness;
  let loc: TestLocation;
  beforeAll(async () => {
    // 2 requests a second per key, bursts of 4: two-second windows of 4, counted in this API process.
    limited = await Harness.beside(h, { RATE_LIMIT_RPS: '2' });
  });
  afterAll(async () => {
    await limited?.stop();
  });
  beforeEach(async () => {
    loc = await h.location();
  });

  it('When a fresh key bursts to twice its rate, then every request passes; the next is 429 rate_limited with a whole-second Retry-After, and it passes again after that wait', async () => {
    const api = limited.client(loc.key);
    const burst: Response[] = [];
    for (let i = 0; i < 4; i += 1) burst.push(await api.get(`${P}/floorplan`).expect(200));

    const refused = await api.post(`${P}/reservations`).send(reservation());

    expectEnvelope(refused, 429, 'rate_limited');
    expect(refused.body.error.message).toBe(
      'rate limit of 2 requests a second exceeded (4 per 2-second window)',
    );
    expect(refused.headers['retry-after']).toMatch(/^[12]$/);
    const answers = [...burst, refused];
    expect(answers.map((r) => r.headers['x-ratelimit-limit'])).toEqual(['4', '4', '4', '4', '4']);
    expect(answers.map((r) => r.headers['x-ratelimit-remaining'])).toEqual(['3', '2', '1', '0', '0']);
    for (const res of answers) expect(res.headers['x-ratelimit-reset']).toMatch(/^[0-2]$/);
    await new Promise((resolve) => setTimeout(resolve, Number(refused.headers['retry-after']) * 1000));
    await api.get(`${P}/floorplan`).expect(200);
  });

  it('When a key sends steadily at its rate, then no request is refused across windows', async () => {
    const api = limited.client(loc.key);
    const statuses: number[] = [];
    // Every 600 ms (a little under 2 a second): at most 4 in any two-second window, however late the timer fires.
    for (let i = 0; i < 8; i += 1) {
      statuses.push((await api.get(`${P}/floorplan`)).status);
      await new Promise((resolve) => setTimeout(resolve, 600));
    }

    expect(statuses).toEqual(Array(8).fill(200));
  });

  it('When one key is limited, then another key, the operator surface and the OpenAPI document still answer, the last two without rate-limit headers', async () => {
    const other = await h.location({ plan: 'none' });
    const api = limited.client(loc.key);
    for (let i = 0; i < 4; i += 1) await api.get(`${P}/floorplan`);
    expectEnvelope(await api.get(`${P}/floorplan`), 429, 'rate_limited');

    const otherKey = await limited.client(other.key).get(`${P}/webhook-deliveries`).expect(200);
    expect(otherKey.headers['x-ratelimit-remaining']).toBe('3');
    for (let i = 0; i < 3; i += 1) {
      const ops = await limited.operator.get(`${B}/locations/${loc.id}/orders`).expect(200);
      const doc = await limited.anonymous.get(`${P}/openapi.json`).expect(200);
      expect([ops.headers['x-ratelimit-limit'], doc.headers['x-ratelimit-limit']]).toEqual([
        undefined,
        undefined,
      ]);
    }
  });

  it('When an authenticated request fails for another reason, then its answer carries the rate-limit headers too; a 401 does not', async () => {
    const api = limited.client(loc.key);

    const unknown = await api.put(`${P}/reservations/nope`).send(reservation({ externalId: 'nope' }));
    const unauthenticated = await limited
      .client('test_sk_live_DDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDD')
      .get(`${P}/floorplan`);

    expectEnvelope(unknown, 404, 'unknown_reservation');
    expect(unknown.headers['x-ratelimit-remaining']).toBe('3');
    expectEnvelope(unauthenticated, 401, 'unauthorized');
    expect(unauthenticated.headers['x-ratelimit-limit']).toBeUndefined();
  });

  it('When a limited key sends a malformed body, then 429 comes first; an unknown key gets 401, never 429', async () => {
    const api = limited.client(loc.key);
    for (let i = 0; i < 4; i += 1) await api.get(`${P}/floorplan`);

    const malformed = await api.post(`${P}/reservations`).set('Content-Type', 'application/json').send('{');
    expectEnvelope(malformed, 429, 'rate_limited');
    for (let i = 0; i < 4; i += 1) {
      expectEnvelope(
        await limited.client('test_sk_live_CCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCC').get(`${P}/floorplan`),
        401,
        'unauthorized',
      );
    }
  });
});

describe('500 and 503 internal_error', () => {
  it('When the API has lost its database, then 503 internal_error with Retry-After and no internals: writes and /readyz once the primary is gone, reads too once a read replica (when it has one) is gone as well', async () => {
    const loc = await h.location();
    const { logger, lines } = memoryLogger();
    const broken = await Harness.beside(h, {}, logger);
    const expect503 = (res: Response) => {
      expectEnvelope(res, 503, 'internal_error');
      expect(res.headers['retry-after']).toBe('1');
      expect(lines.some((l) => l['requestId'] === res.headers['x-request-id'])).toBe(true);
    };
    try {
      const api = broken.client(loc.key);
      await api.get(`${P}/floorplan`).expect(200);

      // The primary: every write, and readiness, depend on it whether or not reads have a replica.
      await broken.runtime.db.dataSource.destroy();

      expect503(await api.post(`${P}/reservations`).send(reservation()));
      expect503(
        await broken.operator.post(loc.ops('/orders')).send({ tableIds: [loc.tables[0]], covers: 2 }),
      );
      expectEnvelope(await broken.anonymous.get('/readyz'), 503, 'internal_error');

      // The rest of it: a read replica's pool (DATABASE_READ_URL, as `pnpm test:replica` and
      // `pnpm test:scaled-out` give every API) could still answer reads, which is what it is
      // for; without one only the listening connection is left. Then no read is answered either.
      await broken.runtime.db.close();

      expect503(await api.get(`${P}/floorplan`));
    } finally {
      await broken.stop();
    }
  });

  it('When the database stops accepting connections, then requests fail in the envelope without internals, and recover after', async () => {
    const loc = await h.location();
    const name = new URL(h.db.url).pathname.slice(1);
    const admin = new PgClient({ connectionString: new URL('/test', h.db.url).toString() });
    await admin.connect();
    try {
      await admin.query(`ALTER DATABASE ${name} ALLOW_CONNECTIONS false`);
      await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1', [name]);

      const res = await loc.api.post(`${P}/reservations`).send(reservation());

      expect([500, 503]).toContain(res.status);
      expectEnvelope(res, res.status, 'internal_error');
    } finally {
      await admin.query(`ALTER DATABASE ${name} ALLOW_CONNECTIONS true`);
      await admin.end();
    }
    await loc.api.post(`${P}/reservations`).send(reservation()).expect(201);
  });

  it('When a query fails unexpectedly, then 500 internal_error with a generic message, and the log line carries the same request id', async () => {
    const loc = await h.location({ plan: 'none' });
    const { logger, lines } = memoryLogger();
    const other = await Harness.beside(h, {}, logger);
    await h.db.dataSource.query('ALTER TABLE reservations RENAME TO reservations_elsewhere');
    try {
      const res = await other
        .client(loc.key)
        .post(`${P}/reservations`)
        .send(reservation())
        .set('X-Request-Id', 'trace-500');

      expectEnvelope(res, 500, 'internal_error');
      expect(res.headers['x-request-id']).toBe('trace-500');
      expect(res.body.error.message).toMatch(/X-Request-Id/);
      expect(res.text).not.toMatch(/reservations|relation|42P01|SELECT|INSERT/i);
      const logged = lines.find((l) => l['requestId'] === 'trace-500');
      expect(logged).toMatchObject({ level: 50, path: `${P}/reservations` });
      expect(JSON.stringify(logged)).not.toContain(loc.key);
    } finally {
      await h.db.dataSource.query('ALTER TABLE reservations_elsewhere RENAME TO reservations');
      await other.stop();
    }
  });
});
