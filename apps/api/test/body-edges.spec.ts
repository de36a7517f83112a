import { expectEnvelope } from './support/envelope';
import { Harness, type TestLocation } from './support/harness';
import { B, P, reservation } from './support/wire';

/**
 * docs/reference/limits-and-formats.md#request-bodies and decision 0007: bodies that are not JSON,
 * too large or mislabelled; request ids.
 */
let h: Harness;
beforeAll(async () => {
  h = await Harness.start();
});
afterAll(async () => {
  await h?.stop();
});

describe('Bodies that are not JSON, too large or mislabelled', () => {
  let loc: TestLocation;
  beforeEach(async () => {
    loc = await h.location({ plan: 'none' });
  });

  it.each([
    ['POST', `${P}/reservations`],
    ['PUT', `${P}/reservations/r-1`],
    ['POST', `${P}/floorplan/import`],
    ['PUT', `${P}/webhook-endpoint`],
  ] as const)('When %s %s gets a body that is not JSON, then 400 validation_failed', async (method, path) => {
    const call = method === 'POST' ? loc.api.post(path) : loc.api.put(path);

    const res = await call.set('Content-Type', 'application/json').send('{"externalId": "r-1",');

    expectEnvelope(res, 400, 'validation_failed');
  });

  it('When the backoffice gets a body that is not JSON, then 400 validation_failed', async () => {
    const res = await h.operator
      .post(`${B}/locations`)
      .set('Content-Type', 'application/json')
      .send('name=x');

    expectEnvelope(res, 400, 'validation_failed');
  });

  it.each([
    ['text/plain', 'text/plain'],
    ['form encoding', 'application/x-www-form-urlencoded'],
    ['a JSON-like type', 'application/merge-patch+json'],
  ])('When a JSON body is sent as %s, then 415 validation_failed', async (_case, type) => {
    const res = await loc.api
      .post(`${P}/reservations`)
      .set('Content-Type', type)
      .send(JSON.stringify(reservation()));

    expectEnvelope(res, 415, 'validation_failed');
  });

  it('When a JSON body is sent without any Content-Type, then 415 validation_failed', async () => {
    const res = await loc.api
      .post(`${P}/reservations`)
      .serialize((b: unknown) => b as string)
      .send(Buffer.from(JSON.stringify(reservation())) as unknown as string)
      .unset('Content-Type');

    expectEnvelope(res, 415, 'validation_failed');
  });

  it('When the Content-Type carries a UTF-8 charset, then the body is accepted', async () => {
    const loc2 = await h.location();
    const res = await loc2.api
      .post(`${P}/reservations`)
      .set('Content-Type', 'application/json; charset=utf-8')
      .send(JSON.stringify(reservation()));

    expect(res.status).toBe(201);
  });

  /** A reservation whose internalNote pads the JSON to exactly `bytes` bytes. */
  function bodyOfBytes(bytes: number): string {
    const shell = JSON.stringify(reservation({ internalNote: '' }));
    return shell.replace('"internalNote":""', `"internalNote":"${'x'.repeat(bytes - shell.length)}"`);
  }

  it('When a body is exactly 1 MiB, then it is read (and refused for its content: 422)', async () => {
    const body = bodyOfBytes(1024 * 1024);
    expect(Buffer.byteLength(body)).toBe(1024 * 1024);

    const res = await loc.api.post(`${P}/reservations`).set('Content-Type', 'application/json').send(body);

    expectEnvelope(res, 422, 'validation_failed');
    expect(res.body.error.details).toEqual([{ path: '/internalNote', message: expect.any(String) }]);
  });

  it('When a body is one byte over 1 MiB, then 413 validation_failed', async () => {
    const body = bodyOfBytes(1024 * 1024 + 1);

    const res = await loc.api.post(`${P}/reservations`).set('Content-Type', 'application/json').send(body);

    expectEnvelope(res, 413, 'validation_failed');
  });

  it('When an oversize body is streamed without a Content-Length, then 413 validation_failed', async () => {
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    const req = loc.api.post(`${P}/floorplan/import`).set('Content-Type', 'application/json');
    for (let i = 0; i < 17; i += 1) req.write(chunk);

    expectEnvelope(await req, 413, 'validation_failed');
  });
});

describe('Operations that take no body', () => {
  it.each([
    ['GET', 'floorplan'],
    ['DELETE', 'webhook-endpoint'],
  ] as const)('When %s %s is sent a body in any format, then the body is ignored', async (method, path) => {
    const loc = await h.location();
    const call = method === 'GET' ? loc.api.get(`${P}/${path}`) : loc.api.delete(`${P}/${path}`);

    const res = await call.set('Content-Type', 'text/plain').send('not json at all');

    // No 400/415: the answer is the operation's own (200 plan, or 404 when no endpoint exists).
    expect(res.status).toBe(method === 'GET' ? 200 : 404);
    if (method === 'DELETE') expectEnvelope(res, 404, 'not_found');
  });

  it('When the operator publishes with a stray body, then the plan is published', async () => {
    const loc = await h.location({ plan: 'draft' });

    const res = await h.operator
      .post(loc.ops('/floorplan/publish'))
      .set('Content-Type', 'application/xml')
      .send('<publish/>');

    expect(res.status).toBe(200);
    expect(res.body.version).toBe(1);
  });
});

describe('Request ids', () => {
  it.each([
    ['a plain token', 'abc-123.x:y_z', 'abc-123.x:y_z'],
    ['spaces', 'a b', null],
    ['129 characters', 'x'.repeat(129), null],
  ])(
    "When the caller's X-Request-Id is %s, then it is kept only when it is a sane token",
    async (_c, sent, kept) => {
      const res = await h.anonymous.get(`${P}/floorplan`).set('X-Request-Id', sent);

      expectEnvelope(res, 401, 'unauthorized');
      if (kept === null) expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
      else expect(res.headers['x-request-id']).toBe(kept);
    },
  );

  it('When a request succeeds, then it carries an X-Request-Id too', async () => {
    const res = await h.anonymous.get(`${P}/openapi.json`).expect(200);

    expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('Strings the database cannot store as sent', () => {
  const NUL = 'a\u0000b';
  const LONE_HIGH = 'a\ud800b';
  const LONE_LOW = '\udc00';
  let loc: TestLocation;
  beforeEach(async () => {
    loc = await h.location({ plan: 'none' });
  });

  it.each([
    ['partyName holds U+0000', { partyName: NUL }, '/partyName'],
    ['externalId holds U+0000', { externalId: NUL }, '/externalId'],
    ['a guest tag holds U+0000', { guest: { tags: ['ok', NUL] } }, '/guest/tags/1'],
    ['a table id holds U+0000', { tableIds: [NUL] }, '/tableIds/0'],
    [
      'a prepayment item label holds U+0000',
      { prepayment: { prepaidMinor: 1, currency: 'EUR', items: [{ label: NUL, amountMinor: 1 }] } },
      '/prepayment/items/0/label',
    ],
    ['partyName holds a lone high surrogate', { partyName: LONE_HIGH }, '/partyName'],
    ['externalId is a lone low surrogate', { externalId: LONE_LOW }, '/externalId'],
    ['internalNote ends in half an emoji', { internalNote: '😀'.slice(0, 1) }, '/internalNote'],
  ])(
    'When a reservation is created where %s, then 422 validation_failed at that string and nothing is stored',
    async (_case, change, pointer) => {
      const loc2 = await h.location();

      const res = await loc2.api
        .post(`${P}/reservations`)
        .type('json')
        .send(JSON.stringify(reservation(change)));

      expectEnvelope(res, 422, 'validation_failed');
      expect(res.body.error.details).toEqual([
        { path: pointer, message: expect.stringMatching(/U\+0000|well-formed/) },
      ]);
      const listed = await loc2.api
        .get(`${P}/reservations?from=2026-11-21T00:00Z&to=2026-11-22T00:00Z`)
        .expect(200);
      expect(listed.body.reservations).toEqual([]);
    },
  );

  it('When a PUT body holds U+0000 in its externalId (and so does the path), then 422, not 500', async () => {
    const externalId = `x${NUL}`;

    const res = await loc.api
      .put(`${P}/reservations/${encodeURIComponent(externalId)}`)
      .send(reservation({ externalId }));

    expectEnvelope(res, 422, 'validation_failed');
  });

  it.each([
    [
      'an import table label',
      'post',
      `${P}/floorplan/import`,
      {
        rooms: [
          { externalId: 'R', name: 'R', tables: [{ externalId: 'T', label: NUL, seatCount: 2, x: 1, y: 1 }] },
        ],
      },
      '/rooms/0/tables/0/label',
    ],
    ['a webhook URL', 'put', `${P}/webhook-endpoint`, { url: `https://hooks.example.test/${NUL}` }, '/url'],
  ] as const)(
    'When %s holds U+0000, then 422 validation_failed',
    async (_case, method, path, body, pointer) => {
      const res = await loc.api[method](path).send(body);

      expectEnvelope(res, 422, 'validation_failed');
      expect(res.body.error.details).toEqual([{ path: pointer, message: expect.any(String) }]);
    },
  );

  it('When the operator sends U+0000 in a location name or an order item label, then 422 validation_failed', async () => {
    const published = await h.location();
    const order = await h.walkIn(published, [published.tables[0]!]);

    const location = await h.operator.post(`${B}/locations`).send({ name: NUL, brand: 'nul' });
    const item = await h.operator
      .post(published.ops(`/orders/${order['id']}/items`))
      .send({ label: LONE_HIGH, amountMinor: 1 });

    expectEnvelope(location, 422, 'validation_failed');
    expectEnvelope(item, 422, 'validation_failed');
    expect((await h.openOrders(published))[0]).toMatchObject({ spendMinor: 0 });
  });

  it('When a body is nested 300 000 levels deep, then it is refused in the envelope, not with a 500', async () => {
    const deep = JSON.stringify(reservation()).replace(
      '{',
      `{"guest":${'['.repeat(300_000)}${']'.repeat(300_000)},`,
    );

    const res = await loc.api.post(`${P}/reservations`).set('Content-Type', 'application/json').send(deep);

    expectEnvelope(res, 422, 'validation_failed');
  });
});
