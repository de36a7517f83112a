import { operations, type OperationSpec } from '@pis/contract';
import type { Response } from 'supertest';
import { expectEnvelope } from './support/envelope';
import { Harness, type TestLocation } from './support/harness';
import { operationWorld, requestOf, simulated, type OperationWorld } from './support/every-operation';
import { P, reservation, type Json } from './support/wire';

/**
 * docs/reference/limits-and-formats.md#rate-limit: every answer to a request authenticated with a
 * provider key carries X-RateLimit-Limit (the two-second window, 2 × RATE_LIMIT_RPS),
 * X-RateLimit-Remaining and X-RateLimit-Reset, whatever its status (2xx, 4xx, 429); a 401, the
 * operator surface, the OpenAPI document and the health probes carry none. Every operation of the
 * contract is called once with a valid request naming real things, on an API whose limit is never
 * reached.
 */
const RPS = 100_000;
const LIMIT = String(2 * RPS);

let h: Harness;
let world: OperationWorld;
let loc: TestLocation;
let sandbox: TestLocation;

beforeAll(async () => {
  h = await Harness.start({ RATE_LIMIT_RPS: String(RPS) });
  world = await operationWorld(h, 'rlh-1');
  ({ loc, sandbox } = world);
});
afterAll(async () => {
  await h?.stop();
});

function call(op: OperationSpec, token: string): Promise<Response> {
  const { path, body } = requestOf(world, op);
  const test = h.client(token)[op.method](path);
  return body === undefined ? test : test.send(body);
}

const rateLimitHeaders = (res: Response) => ({
  limit: res.headers['x-ratelimit-limit'],
  remaining: res.headers['x-ratelimit-remaining'],
  reset: res.headers['x-ratelimit-reset'],
});

/** The three headers: the window, what is left of it (this request counted), whole seconds to its end. */
function expectRateLimitHeaders(res: Response, context: string): void {
  expect({ context, ...rateLimitHeaders(res) }).toEqual({
    context,
    limit: LIMIT,
    remaining: expect.stringMatching(/^(0|[1-9]\d*)$/),
    reset: expect.stringMatching(/^[0-2]$/),
  });
  expect({ context, belowLimit: Number(res.headers['x-ratelimit-remaining']) < 2 * RPS }).toEqual({
    context,
    belowLimit: true,
  });
}

function expectNoRateLimitHeaders(res: Response, context: string): void {
  expect({ context, ...rateLimitHeaders(res) }).toEqual({
    context,
    limit: undefined,
    remaining: undefined,
    reset: undefined,
  });
}

const providerOps = operations.filter((op) => op.security === 'providerKey');
const operatorOps = operations.filter((op) => op.security === 'backofficeToken');
const openOps = operations.filter((op) => op.security === 'none');
const named = (ops: OperationSpec[]) =>
  ops.map((op) => [`${op.operationId} (${op.method.toUpperCase()} ${op.path})`, op] as const);

describe('Every provider-key operation', () => {
  // In the contract's order on shared state: a later operation may answer 404 or 409 for what an
  // earlier one did (a deleted endpoint, a closed order); every answer must carry the headers.
  it.each(named(providerOps))(
    'When %s is called with a valid request under its key, then the answer, whatever its status, carries X-RateLimit-Limit, -Remaining and -Reset',
    async (name, op) => {
      const res = await call(op, simulated(op) ? sandbox.key : loc.key);

      const context = `${name} answered ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`;
      expect({ context, authenticated: res.status !== 401, served: res.status < 500 }).toEqual({
        context,
        authenticated: true,
        served: true,
      });
      expectRateLimitHeaders(res, context);
    },
  );
});

describe('Provider error answers', () => {
  it('When a provider request fails validation, names nothing, conflicts, is refused by the simulator or is not JSON, then its error answer carries the headers too', async () => {
    const order = ((await h.walkIn(sandbox, [sandbox.tables[1]!])) as Json)['id'] as string;
    await sandbox.api.post(`${P}/sandbox/orders/${order}/close`).expect(200);
    const ghost = '7a1c1d8e-0000-4000-8000-000000000000';

    const answers: [Response, number, string][] = [
      [
        await loc.api.post(`${P}/reservations`).send(reservation({ covers: 'two' })),
        422,
        'validation_failed',
      ],
      [
        await sandbox.api
          .post(`${P}/sandbox/orders/${order}/payments`)
          .send({ amountMinor: 1, tender: 'cheque' }),
        422,
        'validation_failed',
      ],
      [
        await loc.api.put(`${P}/reservations/rlh-nope`).send(reservation({ externalId: 'rlh-nope' })),
        404,
        'unknown_reservation',
      ],
      [await sandbox.api.post(`${P}/sandbox/orders/${ghost}/close`), 404, 'not_found'],
      [await sandbox.api.post(`${P}/sandbox/orders/not-a-uuid/close`), 404, 'not_found'],
      [
        await sandbox.api.post(`${P}/sandbox/orders/${order}/items`).send({ label: 'x', amountMinor: 1 }),
        409,
        'order_closed',
      ],
      [
        await loc.api
          .post(`${P}/sandbox/orders/${world.sandboxOrderId}/items`)
          .send({ label: 'x', amountMinor: 1 }),
        403,
        'sandbox_only',
      ],
      [await loc.api.post(`${P}/sandbox/floorplan/publish`), 403, 'sandbox_only'],
      [
        await loc.api.post(`${P}/reservations`).set('Content-Type', 'application/json').send('{"covers":'),
        400,
        'validation_failed',
      ],
      [
        await loc.api.post(`${P}/reservations`).set('Content-Type', 'text/plain').send('covers'),
        415,
        'validation_failed',
      ],
    ];

    for (const [res, status, code] of answers) {
      expectEnvelope(res, status, code);
      expectRateLimitHeaders(res, `${status} ${code} ${JSON.stringify(res.body)}`);
    }
  });

  it('When a key is over its limit, then the 429 carries the headers with nothing remaining', async () => {
    const limited = await Harness.beside(h, { RATE_LIMIT_RPS: '1' });
    try {
      const api = limited.client(loc.key);
      // A window holds 2 requests: the first refusal comes by the third request of a window,
      // however slowly they are sent, so 20 in a row always meet one.
      let refused: Response | undefined;
      for (let i = 0; i < 20 && refused === undefined; i += 1) {
        const res = await api.get(`${P}/floorplan`);
        if (res.status === 429) refused = res;
        else expect(res.status).toBe(200);
      }

      expect(refused).toBeDefined();
      expectEnvelope(refused!, 429, 'rate_limited');
      expect(rateLimitHeaders(refused!)).toEqual({
        limit: '2',
        remaining: '0',
        reset: expect.stringMatching(/^[0-2]$/),
      });
    } finally {
      await limited.stop();
    }
  });

  it('When the key is not accepted, then the 401 carries no rate-limit headers', async () => {
    const revoked = await h.operator.post(loc.ops('/api-keys')).expect(201);
    await h.operator.delete(loc.ops(`/api-keys/${revoked.body.id}`)).expect(204);

    for (const token of [
      revoked.body.key as string,
      'test_sk_live_DDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDD',
      null,
    ]) {
      const res = await h.client(token).get(`${P}/floorplan`);

      expectEnvelope(res, 401, 'unauthorized');
      expectNoRateLimitHeaders(res, `401 for ${token}`);
    }
  });
});

describe('Surfaces that are not rate limited', () => {
  it.each(named(operatorOps))(
    'When %s is called with the backoffice token, then the answer carries no rate-limit headers',
    async (name, op) => {
      const res = await call(op, h.operator.token!);

      const context = `${name} answered ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`;
      expect({ context, authenticated: res.status !== 401, served: res.status < 500 }).toEqual({
        context,
        authenticated: true,
        served: true,
      });
      expectNoRateLimitHeaders(res, context);
    },
  );

  it.each(named(openOps))(
    'When %s is called without a credential or with a provider key, then the answer carries no rate-limit headers',
    async (name, op) => {
      for (const client of [h.anonymous, loc.api]) {
        const res = await client.get(requestOf(world, op).path).expect(200);

        expectNoRateLimitHeaders(res, `${name} with ${client.token === null ? 'no credential' : 'a key'}`);
      }
    },
  );
});
