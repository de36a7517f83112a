import { randomUUID } from 'node:crypto';
import { expectEnvelope } from './support/envelope';
import { Harness, type TestLocation } from './support/harness';
import {
  connectionPath,
  createProvider,
  grant,
  located,
  revoke,
  type TestProvider,
} from './support/providers';
import { B, P, reservation } from './support/wire';

/**
 * docs/reference/providers.md: providers and their keys, connections granted and revoked by the
 * operator, the location's own provider, the Location-Id header with its check order, the
 * provider's list of connections and the operator's list of locations.
 */
let h: Harness;
beforeAll(async () => {
  h = await Harness.start();
});
afterAll(async () => {
  await h?.stop();
});

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe('Providers', () => {
  it('When a provider is created, then 201 with its id, name, brand and createdAt, and it reads back by id', async () => {
    const created = await h.operator.post(`${B}/providers`).send({ name: 'OpenBook', brand: 'openbook' });

    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(String),
      name: 'OpenBook',
      brand: 'openbook',
      createdAt: expect.stringMatching(ISO),
    });
    expect((await h.operator.get(`${B}/providers/${created.body.id}`).expect(200)).body).toEqual(
      created.body,
    );
  });

  it('When providers are listed, then the newest come first, page by page, and a location’s own provider is not among them', async () => {
    const made = [];
    for (let i = 0; i < 3; i += 1) made.push(await createProvider(h));
    const loc = await h.location({ plan: 'none' });

    const first = await h.operator.get(`${B}/providers?limit=2`).expect(200);
    const second = await h.operator
      .get(`${B}/providers?limit=2&cursor=${encodeURIComponent(first.body.nextCursor)}`)
      .expect(200);

    const ids = [...first.body.providers, ...second.body.providers].map((p: { id: string }) => p.id);
    expect(ids.slice(0, 3)).toEqual(made.map((p) => p.id).reverse());
    expect(ids).not.toContain(loc.id);
    expectEnvelope(await h.operator.get(`${B}/providers/${loc.id}`), 404, 'not_found');
  });

  it.each([
    ['an empty name', { name: '', brand: 'ok' }, '/name'],
    ['a brand with capitals', { name: 'X', brand: 'Open' }, '/brand'],
    ['no brand', { name: 'X' }, '/brand'],
    ['an unknown property', { name: 'X', brand: 'ok', colour: 'red' }, '/colour'],
  ])('When a provider is created with %s, then 422 validation_failed naming it', async (_c, body, path) => {
    const res = await h.operator.post(`${B}/providers`).send(body);

    expectEnvelope(res, 422, 'validation_failed');
    expect(res.body.error.details.map((d: { path: string }) => d.path)).toContain(path);
  });

  it('When an unknown provider is read, then 404 not_found', async () => {
    expectEnvelope(await h.operator.get(`${B}/providers/${randomUUID()}`), 404, 'not_found');
    expectEnvelope(await h.operator.get(`${B}/providers/not-an-id`), 404, 'not_found');
  });
});

describe('Provider keys', () => {
  let provider: { id: string };
  beforeEach(async () => {
    provider = (await h.operator.post(`${B}/providers`).send({ name: 'Keys', brand: 'keys' }).expect(201))
      .body;
  });

  it('When a key is issued without a body, then it is a live key <brand>_pk_live_ and 40 base62, shown with its id and mode', async () => {
    const res = await h.operator.post(`${B}/providers/${provider.id}/api-keys`);

    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(String),
      key: expect.stringMatching(/^keys_pk_live_[A-Za-z0-9]{40}$/),
      mode: 'live',
      createdAt: expect.stringMatching(ISO),
    });
  });

  it('When a test key is asked for, then it is <brand>_pk_test_; an unknown mode is 422', async () => {
    const test = await h.operator.post(`${B}/providers/${provider.id}/api-keys`).send({ mode: 'test' });
    const bad = await h.operator.post(`${B}/providers/${provider.id}/api-keys`).send({ mode: 'prod' });

    expect(test.status).toBe(201);
    expect(test.body).toMatchObject({
      key: expect.stringMatching(/^keys_pk_test_[A-Za-z0-9]{40}$/),
      mode: 'test',
    });
    expectEnvelope(bad, 422, 'validation_failed');
  });

  it('When a key is issued for an unknown provider or a location’s own provider, then 404 not_found', async () => {
    const loc = await h.location({ plan: 'none' });

    expectEnvelope(await h.operator.post(`${B}/providers/${randomUUID()}/api-keys`), 404, 'not_found');
    expectEnvelope(await h.operator.post(`${B}/providers/${loc.id}/api-keys`), 404, 'not_found');
  });

  it('When a provider key that was just used is revoked, then its next request is 401 and the provider’s other key still works', async () => {
    const loc = await h.location();
    const p = await createProvider(h);
    await grant(h, loc, p);
    const spare = await h.operator.post(`${B}/providers/${p.id}/api-keys`).expect(201);
    await p.at(loc).get(`${P}/floorplan`).expect(200);

    await h.operator.delete(`${B}/providers/${p.id}/api-keys/${p.keyId}`).expect(204);

    const res = await p.at(loc).get(`${P}/floorplan`);
    expectEnvelope(res, 401, 'unauthorized');
    expect(res.headers['www-authenticate']).toBe('Bearer');
    await located(h.client(spare.body.key), loc.id).get(`${P}/floorplan`).expect(200);
    await h.operator.delete(`${B}/providers/${p.id}/api-keys/${p.keyId}`).expect(204);
  });

  it('When a key is revoked through the wrong provider, or a location key through a provider path, then 404 not_found and it still works', async () => {
    const loc = await h.location();
    const p = await createProvider(h);
    await grant(h, loc, p);

    expectEnvelope(
      await h.operator.delete(`${B}/providers/${provider.id}/api-keys/${p.keyId}`),
      404,
      'not_found',
    );
    expectEnvelope(
      await h.operator.delete(`${B}/providers/${loc.id}/api-keys/${loc.keyId}`),
      404,
      'not_found',
    );
    await p.at(loc).get(`${P}/floorplan`).expect(200);
    await loc.api.get(`${P}/floorplan`).expect(200);
  });
});

describe('Connections', () => {
  let loc: TestLocation;
  let p: TestProvider;
  beforeEach(async () => {
    loc = await h.location();
    p = await createProvider(h);
  });

  it('When a provider is granted, then 201 active; granted again, 200 with the same grant; revoked, 204 and again 204', async () => {
    const first = await h.operator.put(connectionPath(loc, p.id));
    const again = await h.operator.put(connectionPath(loc, p.id));
    const revoked = await h.operator.delete(connectionPath(loc, p.id));
    const revokedAgain = await h.operator.delete(connectionPath(loc, p.id));

    expect(first.status).toBe(201);
    expect(first.body).toEqual({
      locationId: loc.id,
      providerId: p.id,
      providerName: p.name,
      own: false,
      status: 'active',
      grantedAt: expect.stringMatching(ISO),
      revokedAt: null,
    });
    expect([again.status, again.body]).toEqual([200, first.body]);
    expect([revoked.status, revokedAgain.status]).toEqual([204, 204]);
  });

  it('When the operator lists a location’s connections, then its own provider comes first and a revoked one shows when it was revoked; a re-grant is 200 and active again', async () => {
    await grant(h, loc, p);
    await revoke(h, loc, p);

    const listed = await h.operator.get(`${B}/locations/${loc.id}/connections`).expect(200);
    const regranted = await h.operator.put(connectionPath(loc, p.id));

    expect(listed.body.connections).toEqual([
      expect.objectContaining({ providerId: loc.id, own: true, status: 'active', revokedAt: null }),
      expect.objectContaining({
        providerId: p.id,
        own: false,
        status: 'revoked',
        revokedAt: expect.stringMatching(ISO),
      }),
    ]);
    expect(regranted.status).toBe(200);
    expect(regranted.body).toMatchObject({ status: 'active', revokedAt: null });
    expect(Date.parse(regranted.body.grantedAt)).toBeGreaterThanOrEqual(
      Date.parse(listed.body.connections[1].grantedAt),
    );
  });

  it('When a provider never connected is revoked, then 204 and nothing is listed for it', async () => {
    await h.operator.delete(connectionPath(loc, p.id)).expect(204);

    const listed = await h.operator.get(`${B}/locations/${loc.id}/connections`).expect(200);
    expect(listed.body.connections.map((c: { providerId: string }) => c.providerId)).toEqual([loc.id]);
  });

  it('When the location’s own provider is revoked, then 422 validation_failed and its key keeps working; granting it is 200', async () => {
    const res = await h.operator.delete(connectionPath(loc, loc.id));
    const granted = await h.operator.put(connectionPath(loc, loc.id));

    expectEnvelope(res, 422, 'validation_failed');
    expect(res.body.error.message).toMatch(/own provider/);
    expect(granted.status).toBe(200);
    expect(granted.body).toMatchObject({ providerId: loc.id, own: true, status: 'active' });
    await loc.api.get(`${P}/floorplan`).expect(200);
  });

  it('When a grant names an unknown provider or location, or another location’s own provider, then 404 not_found and nothing is connected', async () => {
    const other = await h.location({ plan: 'none' });

    for (const path of [
      connectionPath(loc, randomUUID()),
      connectionPath(randomUUID(), p.id),
      connectionPath(loc, other.id),
      connectionPath(loc, 'nope'),
    ]) {
      expectEnvelope(await h.operator.put(path), 404, 'not_found');
      expectEnvelope(await h.operator.delete(path), 404, 'not_found');
    }
    const listed = await h.operator.get(`${B}/locations/${loc.id}/connections`).expect(200);
    expect(listed.body.connections).toHaveLength(1);
    expectEnvelope(await h.operator.get(`${B}/locations/${randomUUID()}/connections`), 404, 'not_found');
  });

  it('When many grants of one pair race, then exactly one is 201 and the others 200, and the connection is active once', async () => {
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => h.operator.put(connectionPath(loc, p.id))),
    );

    expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 200, 200, 200, 200, 200, 201]);
    expect(new Set(answers.map((a) => a.body.grantedAt)).size).toBe(1);
    const listed = await h.operator.get(`${B}/locations/${loc.id}/connections`).expect(200);
    expect(listed.body.connections).toHaveLength(2);
  });

  it('When grants and revokes of one pair race, then each answers as documented and the provider’s access agrees with the connection as it ends', async () => {
    await grant(h, loc, p);
    for (let round = 0; round < 5; round += 1) {
      const answers = await Promise.all([
        h.operator.put(connectionPath(loc, p.id)),
        h.operator.delete(connectionPath(loc, p.id)),
        h.operator.put(connectionPath(loc, p.id)),
        h.operator.delete(connectionPath(loc, p.id)),
      ]);
      const [grantA, revokeA, grantB, revokeB] = answers.map((a) => a.status);
      expect([grantA, grantB].every((status) => status === 200 || status === 201)).toBe(true);
      expect([revokeA, revokeB]).toEqual([204, 204]);
      const listed = await h.operator.get(`${B}/locations/${loc.id}/connections`).expect(200);
      const status = listed.body.connections.find(
        (c: { providerId: string }) => c.providerId === p.id,
      ).status;
      const access = await p.at(loc).get(`${P}/floorplan`);
      expect({ status, access: access.status }).toEqual(
        status === 'active' ? { status, access: 200 } : { status, access: 403 },
      );
    }
  });
});

describe('GET /locations', () => {
  it('When the operator lists locations, then the newest come first, page by page, with the location shape', async () => {
    const made = [];
    for (let i = 0; i < 3; i += 1) made.push(await h.location({ plan: 'none' }));

    const first = await h.operator.get(`${B}/locations?limit=2`).expect(200);
    const second = await h.operator.get(`${B}/locations?limit=2&cursor=${first.body.nextCursor}`).expect(200);

    expect(first.body.locations.map((l: { id: string }) => l.id)).toEqual([made[2]!.id, made[1]!.id]);
    expect(second.body.locations[0].id).toBe(made[0]!.id);
    expect(first.body.locations[0]).toEqual({
      id: made[2]!.id,
      name: expect.any(String),
      brand: 'test',
      currency: 'EUR',
      sandbox: false,
    });
  });

  it('When the cursor or the limit is bad, then 422 validation_failed', async () => {
    expectEnvelope(await h.operator.get(`${B}/locations?cursor=nonsense`), 422, 'validation_failed');
    expectEnvelope(await h.operator.get(`${B}/locations?limit=0`), 422, 'validation_failed');
    const providers = await h.operator.get(`${B}/providers?limit=1`).expect(200);
    if (providers.body.nextCursor !== null) {
      const crossed = await h.operator.get(`${B}/locations?cursor=${providers.body.nextCursor}`);
      expectEnvelope(crossed, 422, 'validation_failed');
    }
  });
});

describe('Choosing the location', () => {
  let loc: TestLocation;
  let p: TestProvider;
  beforeEach(async () => {
    loc = await h.location();
    p = await createProvider(h);
    await grant(h, loc, p);
  });

  const routes = (): [string, string, unknown?][] => [
    ['post', `${P}/reservations`, reservation()],
    ['get', `${P}/reservations?from=2026-11-21T00:00Z&to=2026-11-22T00:00Z`],
    ['get', `${P}/floorplan`],
    ['get', `${P}/events`],
    ['get', `${P}/tables/state`],
    ['get', `${P}/webhook-endpoint`],
    ['get', `${P}/webhook-deliveries`],
    ['post', `${P}/sandbox/floorplan/publish`],
  ];

  it('When a provider key calls a location route without Location-Id, then 400 location_required; the delivery log is its provider-scope endpoints’ instead', async () => {
    const api = h.client(p.key);
    // The webhook endpoint routes without Location-Id act on the provider scope (decision 0215).
    expect((await api.get(`${P}/webhook-deliveries`).expect(200)).body.deliveries).toEqual([]);
    for (const [method, path, body] of routes().filter(([, path]) => path !== `${P}/webhook-deliveries`)) {
      const call = (api as unknown as Record<string, (path: string) => import('supertest').Test>)[method]!(
        path,
      );
      expectEnvelope(await (body === undefined ? call : call.send(body as object)), 400, 'location_required');
    }
  });

  it('When Location-Id is not a UUID, then 422 validation_failed, for a provider key and a location key alike', async () => {
    expectEnvelope(await p.at('not-a-uuid').get(`${P}/floorplan`), 422, 'validation_failed');
    expectEnvelope(await located(loc.api, 'not-a-uuid').get(`${P}/floorplan`), 422, 'validation_failed');
  });

  it('When a provider key names a location it is not connected to, an unknown one or one revoked, then 403 location_not_granted', async () => {
    const other = await h.location();
    const revoked = await h.location();
    await grant(h, revoked, p);
    await revoke(h, revoked, p);

    for (const target of [other.id, randomUUID(), revoked.id]) {
      expectEnvelope(await p.at(target).get(`${P}/floorplan`), 403, 'location_not_granted');
      expectEnvelope(
        await p.at(target).post(`${P}/reservations`).send(reservation()),
        403,
        'location_not_granted',
      );
    }
  });

  it('When a location key sends its own Location-Id, then it is ignored; another location’s is 403 location_not_granted', async () => {
    const other = await h.location({ plan: 'none' });

    await located(loc.api, loc.id).get(`${P}/floorplan`).expect(200);
    await located(loc.api, loc.id.toUpperCase()).get(`${P}/floorplan`).expect(200);
    expectEnvelope(await located(loc.api, other.id).get(`${P}/floorplan`), 403, 'location_not_granted');
  });

  it('When checks could each refuse, then authentication answers first, then the location, then the route’s own rules', async () => {
    const badKey = h.client('booking_pk_live_' + 'A'.repeat(40));
    const unknownBody = { nonsense: true };

    expectEnvelope(await badKey.post(`${P}/reservations`).send(unknownBody), 401, 'unauthorized');
    expectEnvelope(
      await h.client(p.key).post(`${P}/reservations`).send(unknownBody),
      400,
      'location_required',
    );
    expectEnvelope(await p.at('x').post(`${P}/reservations`).send(unknownBody), 422, 'validation_failed');
    expectEnvelope(
      await p.at(randomUUID()).post(`${P}/reservations`).send(unknownBody),
      403,
      'location_not_granted',
    );
    expectEnvelope(await p.at(loc).post(`${P}/reservations`).send(unknownBody), 422, 'validation_failed');
    expectEnvelope(
      await p
        .at(loc)
        .put(`${P}/reservations/r-nope`)
        .send(reservation({ externalId: 'r-nope' })),
      404,
      'unknown_reservation',
    );
  });

  it('When a provider’s live key names a sandbox location, then 403; its test key reaches it and its simulator, and not a live location', async () => {
    const sandbox = await h.location({ sandbox: true });
    await grant(h, sandbox, p);
    const testKey = (
      await h.operator.post(`${B}/providers/${p.id}/api-keys`).send({ mode: 'test' }).expect(201)
    ).body.key;
    const test = (id: string) => located(h.client(testKey), id);

    expectEnvelope(await p.at(sandbox).get(`${P}/floorplan`), 403, 'location_not_granted');
    await test(sandbox.id).get(`${P}/floorplan`).expect(200);
    await test(sandbox.id).get(`${P}/sandbox/orders`).expect(200);
    expectEnvelope(await test(loc.id).get(`${P}/floorplan`), 403, 'location_not_granted');
    expectEnvelope(await p.at(loc).get(`${P}/sandbox/orders`), 403, 'sandbox_only');
  });

  it('When a provider key reaches the webhook endpoint routes of a location, then 404 not_found: the endpoint is the location key’s', async () => {
    await loc.api.put(`${P}/webhook-endpoint`).send({ url: 'https://hooks.example.test/own' }).expect(200);

    expectEnvelope(await p.at(loc).get(`${P}/webhook-endpoint`), 404, 'not_found');
    expectEnvelope(
      await p.at(loc).put(`${P}/webhook-endpoint`).send({ url: 'https://hooks.example.test/p' }),
      404,
      'not_found',
    );
    expectEnvelope(await p.at(loc).delete(`${P}/webhook-endpoint`), 404, 'not_found');
    // Its delivery log is its own endpoints' (none yet), never the location key's.
    const log = await p.at(loc).get(`${P}/webhook-deliveries`).expect(200);
    expect(log.body.deliveries).toEqual([]);
    expectEnvelope(
      await p.at(loc).post(`${P}/webhook-endpoint/recover`).send({ afterSequence: 0 }),
      404,
      'not_found',
    );
    expect((await loc.api.get(`${P}/webhook-endpoint`).expect(200)).body.url).toBe(
      'https://hooks.example.test/own',
    );
  });

  it('When a connection is revoked through one API process, then another process that had it cached refuses the provider too', async () => {
    const other = await Harness.beside(h, { REDIS_URL: 'redis://127.0.0.1:6379' });
    try {
      await other.runtime.start();
      const elsewhere = located(other.client(p.key), loc.id);
      await elsewhere.get(`${P}/floorplan`).expect(200);

      await revoke(h, loc, p);

      expectEnvelope(await p.at(loc).get(`${P}/floorplan`), 403, 'location_not_granted');
      const deadline = Date.now() + 3_000;
      let status = 200;
      while (status !== 403 && Date.now() < deadline) {
        status = (await elsewhere.get(`${P}/floorplan`)).status;
        if (status !== 403) await new Promise((resolve) => setTimeout(resolve, 25));
      }
      expect(status).toBe(403);
    } finally {
      await other.stop();
    }
  });
});

describe('The rate limit counts per key and location', () => {
  let limited: Harness;
  beforeAll(async () => {
    // Two-second windows of 4 requests per key and location, counted in this API process.
    limited = await Harness.beside(h, { RATE_LIMIT_RPS: '2' });
  });
  afterAll(async () => {
    await limited?.stop();
  });

  it('When a provider key spends its window at one location, then it is 429 there and still passes at another', async () => {
    const [a, b] = [await h.location(), await h.location()];
    const p = await createProvider(h);
    await grant(h, a, p);
    await grant(h, b, p);
    const at = (loc: TestLocation) => located(limited.client(p.key), loc.id);

    const statuses = [];
    for (let i = 0; i < 5; i += 1) statuses.push((await at(a).get(`${P}/floorplan`)).status);
    const elsewhere = await at(b).get(`${P}/floorplan`);

    expect(statuses).toEqual([200, 200, 200, 200, 429]);
    expect(elsewhere.status).toBe(200);
    expect(elsewhere.headers['x-ratelimit-remaining']).toBe('3');
  });

  it('When a provider key keeps naming a location it may not reach, then each answer is its 403 with the limit headers, counted against the key, even past the limit', async () => {
    const p = await createProvider(h);
    const stranger = located(limited.client(p.key), (await h.location({ plan: 'none' })).id);

    const answers = [];
    for (let i = 0; i < 5; i += 1) answers.push(await stranger.get(`${P}/floorplan`));

    for (const res of answers) expectEnvelope(res, 403, 'location_not_granted');
    expect(answers.map((res) => res.headers['x-ratelimit-remaining'])).toEqual(['3', '2', '1', '0', '0']);
  });
});

describe('GET /connections', () => {
  it('When a provider lists its connections, then it needs no Location-Id and gets them by grantedAt, active and revoked, page by page', async () => {
    const p = await createProvider(h);
    const locs = [
      await h.location({ plan: 'none' }),
      await h.location({ plan: 'none' }),
      await h.location({ plan: 'none' }),
    ];
    for (const loc of locs) await grant(h, loc, p);
    await revoke(h, locs[1]!, p);
    const api = h.client(p.key);

    const first = await api.get(`${P}/connections?limit=2`).set('Location-Id', 'ignored');
    const second = await api.get(`${P}/connections?limit=2&cursor=${first.body.nextCursor}`);

    expect(first.status).toBe(200);
    const all = [...first.body.connections, ...second.body.connections];
    expect(all.map((c: { locationId: string }) => c.locationId)).toEqual(locs.map((l) => l.id));
    expect(all[1]).toEqual({
      locationId: locs[1]!.id,
      name: expect.any(String),
      currency: 'EUR',
      sandbox: false,
      status: 'revoked',
      grantedAt: expect.stringMatching(ISO),
      revokedAt: expect.stringMatching(ISO),
    });
    expect(second.body.nextCursor).toBeNull();
  });

  it('When a location key lists its connections, then it has its one location', async () => {
    const loc = await h.location({ plan: 'none' });

    const res = await loc.api.get(`${P}/connections`).expect(200);

    expect(res.body).toEqual({
      connections: [expect.objectContaining({ locationId: loc.id, status: 'active', revokedAt: null })],
      nextCursor: null,
    });
  });

  it('When the limit is above 100 or the cursor is another listing’s, then 422 validation_failed', async () => {
    const p = await createProvider(h);

    expectEnvelope(await h.client(p.key).get(`${P}/connections?limit=101`), 422, 'validation_failed');
    expectEnvelope(await h.client(p.key).get(`${P}/connections?cursor=abc`), 422, 'validation_failed');
  });
});
