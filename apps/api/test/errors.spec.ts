import { operations } from '@pis/contract';
import { expectEnvelope } from './support/envelope';
import { Harness, type TestLocation } from './support/harness';
import { B, P, nextUpdatedAt, planImport, reservation } from './support/wire';

/** docs/reference/errors.md#codes: 401, 404, 405, 409 and 422, each in the one envelope. */
let h: Harness;
beforeAll(async () => {
  h = await Harness.start();
});
afterAll(async () => {
  await h?.stop();
});

const SOME_UUID = '5d0c7a4e-5f43-4c39-9f43-7d1f1d7c0001';
const withParams = (path: string) =>
  path.replace(/\{(\w+)\}/g, (_m, name) => (name === 'externalId' ? 'r-1' : SOME_UUID));
const providerOps = operations.filter((op) => op.security === 'providerKey');

describe('401 unauthorized', () => {
  it.each(providerOps.map((op) => [op.method.toUpperCase(), op.path, op] as const))(
    'When %s %s is called without a credential, then 401 with WWW-Authenticate: Bearer',
    async (_m, _p, op) => {
      const res = await h.anonymous[op.method](withParams(op.path)).send(op.body ? {} : undefined);

      expectEnvelope(res, 401, 'unauthorized');
      expect(res.headers['www-authenticate']).toBe('Bearer');
    },
  );

  it.each([
    ['an empty bearer', 'Bearer '],
    ['a Basic credential', 'Basic dXNlcjpwYXNz'],
    ['a bare key without the scheme', 'test_sk_live_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'],
    ['a malformed key', 'Bearer not-a-key'],
    ['a key too short after the prefix', 'Bearer test_sk_live_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'],
    ['a well-formed key nobody issued', 'Bearer test_sk_live_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'],
    ['the backoffice token', 'Bearer test-backoffice-token-0123'],
  ])(
    'When the provider API is called with %s, then 401 with WWW-Authenticate: Bearer',
    async (_case, header) => {
      const res = await h.anonymous.get(`${P}/floorplan`).set('Authorization', header);

      expectEnvelope(res, 401, 'unauthorized');
      expect(res.headers['www-authenticate']).toBe('Bearer');
    },
  );

  it('When a live key is one character off, then 401', async () => {
    const loc = await h.location({ plan: 'none' });
    const last = loc.key.slice(-1);
    const forged = loc.key.slice(0, -1) + (last === 'A' ? 'B' : 'A');

    expectEnvelope(await h.client(forged).get(`${P}/webhook-deliveries`), 401, 'unauthorized');
  });
});

describe('404', () => {
  it('When a PUT names an externalId the location does not hold, then 404 unknown_reservation', async () => {
    const loc = await h.location();
    const body = reservation();

    expectEnvelope(
      await loc.api.put(`${P}/reservations/${body['externalId']}`).send(body),
      404,
      'unknown_reservation',
    );
  });

  it.each([
    ['no plan at all', 'none'],
    ['only a draft', 'draft'],
  ] as const)(
    'When the floor plan is read with %s, then 404 floorplan_not_published',
    async (_case, plan) => {
      const loc = await h.location({ plan });

      expectEnvelope(await loc.api.get(`${P}/floorplan`), 404, 'floorplan_not_published');
    },
  );

  it.each([
    ['get', `${P}/nothing-here`],
    ['get', '/'],
    ['get', '/api/provider/v2/reservations'],
    ['post', `${P}/reservations/r-1/cancel`],
    ['get', `${P}/webhook-deliveries/${SOME_UUID}`],
    ['post', `${P}/webhook-deliveries/not-a-uuid/redeliver`],
  ] as const)('When %s %s is requested, then 404 not_found in the envelope', async (method, path) => {
    const loc = await h.location({ plan: 'none' });

    expectEnvelope(await loc.api[method](path), 404, 'not_found');
  });
});

describe('405 with Allow', () => {
  it.each([
    ['delete', `${P}/reservations/r-1`, ['PUT']],
    ['patch', `${P}/reservations`, ['GET', 'HEAD', 'POST']],
    ['post', `${P}/floorplan`, ['GET', 'HEAD']],
    ['get', `${P}/floorplan/import`, ['POST']],
    ['post', `${P}/webhook-endpoint`, ['DELETE', 'GET', 'HEAD', 'PUT']],
    ['get', `${P}/webhook-endpoint/rotate-secret`, ['POST']],
    ['delete', `${P}/webhook-deliveries`, ['GET', 'HEAD']],
    ['get', `${B}/locations/${SOME_UUID}/orders/${SOME_UUID}/close`, ['POST']],
    ['put', `${B}/locations/${SOME_UUID}/tables/${SOME_UUID}`, ['PATCH']],
    ['patch', `${B}/locations`, ['GET', 'HEAD', 'POST']],
    ['post', `${P}/openapi.json`, ['GET', 'HEAD']],
  ] as const)(
    'When %s %s is requested, then 405 not_found listing the allowed methods',
    async (method, path, allowed) => {
      const loc = await h.location({ plan: 'none' });

      const res = await loc.api[method](path);

      expectEnvelope(res, 405, 'not_found');
      expect(String(res.headers['allow']).split(/,\s*/).sort()).toEqual(allowed);
    },
  );
});

describe('409', () => {
  let loc: TestLocation;
  beforeEach(async () => {
    loc = await h.location();
  });

  it('When a POST names an externalId the location holds, then 409 duplicate_reservation and nothing changes', async () => {
    const body = reservation();
    const created = await loc.api.post(`${P}/reservations`).send(body).expect(201);

    const res = await loc.api
      .post(`${P}/reservations`)
      .send({ ...body, status: 'cancelled', updatedAt: nextUpdatedAt() });

    expectEnvelope(res, 409, 'duplicate_reservation');
    const listed = await loc.api
      .get(`${P}/reservations?from=2026-11-21T00:00Z&to=2026-11-22T00:00Z`)
      .expect(200);
    expect(listed.body.reservations).toEqual([created.body.reservation]);
  });

  it('When a reservation is seated on a table a walk-in holds, then 409 table_occupied naming the order with no reservation', async () => {
    const order = await h.walkIn(loc, [loc.tables[0]!]);

    const res = await loc.api
      .post(`${P}/reservations`)
      .send(reservation({ status: 'seated', tableIds: [loc.tables[0]] }));

    expectEnvelope(res, 409, 'table_occupied');
    expect(res.body.error.occupiedBy).toEqual({ orderId: order['id'], reservationExternalId: null });
  });

  it('When a seated reservation is moved onto a table another reservation holds, then 409 naming both, and nothing is applied', async () => {
    const holder = reservation({ status: 'seated', tableIds: [loc.tables[1]] });
    const held = await loc.api.post(`${P}/reservations`).send(holder).expect(201);
    const mover = reservation({ status: 'seated', tableIds: [loc.tables[0]] });
    const seated = await loc.api.post(`${P}/reservations`).send(mover).expect(201);

    const res = await loc.api
      .put(`${P}/reservations/${mover['externalId']}`)
      .send({ ...mover, tableIds: [loc.tables[1]], updatedAt: nextUpdatedAt() });

    expectEnvelope(res, 409, 'table_occupied');
    expect(res.body.error.occupiedBy).toEqual({
      orderId: held.body.reservation.linkedOrderId,
      reservationExternalId: holder['externalId'],
    });
    const retry = await loc.api.put(`${P}/reservations/${mover['externalId']}`).send(mover).expect(200);
    expect(retry.body).toEqual({ outcome: 'stale', reservation: seated.body.reservation });
  });

  it('When a reservation that only plans a taken table is written, then it is applied (a plan is not occupancy)', async () => {
    await h.walkIn(loc, [loc.tables[0]!]);

    const res = await loc.api
      .post(`${P}/reservations`)
      .send(reservation({ status: 'confirmed', tableIds: [loc.tables[0]] }));

    expect(res.status).toBe(201);
  });

  it.each([
    ['POST', 'none'],
    ['POST', 'draft'],
    ['PUT', 'draft'],
  ] as const)(
    'When a %s names tableIds before the first publish (%s), then 409 floorplan_not_published',
    async (method, plan) => {
      const draft = await h.location({ plan });
      const table = draft.tables[0] ?? SOME_UUID;
      const body = reservation();
      if (method === 'PUT') await draft.api.post(`${P}/reservations`).send(body).expect(201);

      const res =
        method === 'POST'
          ? await draft.api.post(`${P}/reservations`).send({ ...body, tableIds: [table] })
          : await draft.api
              .put(`${P}/reservations/${body['externalId']}`)
              .send({ ...body, tableIds: [table], updatedAt: nextUpdatedAt() });

      expectEnvelope(res, 409, 'floorplan_not_published');
    },
  );

  it('When a plan is imported over a draft without replaceDraft, then 409 draft_not_empty; with replaceDraft the draft is replaced', async () => {
    const draft = await h.location({ plan: 'draft' });

    const refused = await draft.api.post(`${P}/floorplan/import`).send(planImport({ tables: 1 }));
    const replaced = await draft.api
      .post(`${P}/floorplan/import`)
      .send(planImport({ tables: 1, replaceDraft: true }));

    expectEnvelope(refused, 409, 'draft_not_empty');
    expect(refused.body.error.message).toMatch(/replaceDraft/);
    expect(replaced.status).toBe(201);
    expect(replaced.body.mapping).toHaveLength(1);
    expect(replaced.body.mapping[0].tableId).not.toBe(draft.tables[0]);
  });

  it.each([false, true])(
    'When a plan is imported after the first publish (replaceDraft %s), then 409 draft_not_empty saying the import is closed for good',
    async (replaceDraft) => {
      const res = await loc.api.post(`${P}/floorplan/import`).send(planImport({ replaceDraft }));

      expectEnvelope(res, 409, 'draft_not_empty');
      expect(res.body.error.message).toMatch(/closed for good/);
      expect(
        (await loc.api.get(`${P}/floorplan`).expect(200)).body.rooms[0].tables
          .map((t: { id: string }) => t.id)
          .sort(),
      ).toEqual([...loc.tables].sort());
    },
  );
});

describe('422', () => {
  let loc: TestLocation;
  beforeEach(async () => {
    loc = await h.location();
  });

  it.each([
    ['a UUID no table has', [SOME_UUID]],
    ['a label instead of an id', ['1.1']],
    ['one known and one unknown id', 'mixed'],
  ])('When tableIds hold %s, then 422 unknown_table_id naming the unknown ids', async (_case, ids) => {
    const tableIds = ids === 'mixed' ? [loc.tables[0], SOME_UUID] : ids;

    const res = await loc.api.post(`${P}/reservations`).send(reservation({ tableIds }));

    expectEnvelope(res, 422, 'unknown_table_id');
    expect(res.body.error.message).toContain((tableIds as string[]).at(-1));
    expect(res.body.error.message).not.toContain(loc.tables[0]);
  });

  it.each([
    ['seated without tables', { status: 'seated', tableIds: [] }, '/tableIds'],
    ['a table named twice', 'dup', '/tableIds'],
    ['an unknown property', { notes: 'typo of internalNote' }, ''],
    ['an unknown property in the guest', { guest: { nmae: 'Ada' } }, '/guest'],
    ['a missing required field', { covers: undefined }, ''],
    ['a string for an integer', { covers: '2' }, '/covers'],
    ['a fractional covers', { covers: 2.5 }, '/covers'],
    ['an unknown status', { status: 'waitlisted' }, '/status'],
    ['an array body', 'array', ''],
    ['a null body', 'null', ''],
  ])(
    'When a reservation has %s, then 422 validation_failed with details',
    async (_case, change, pathPrefix) => {
      const base = reservation();
      const body =
        change === 'array'
          ? [base]
          : change === 'null'
            ? null
            : change === 'dup'
              ? { ...base, tableIds: [loc.tables[0], loc.tables[0]] }
              : JSON.parse(JSON.stringify({ ...base, ...(change as object) }));

      const res = await loc.api.post(`${P}/reservations`).type('json').send(JSON.stringify(body));

      expectEnvelope(res, 422, 'validation_failed');
      expect(res.body.error.details).toEqual(
        expect.arrayContaining([
          { path: expect.stringMatching(new RegExp(`^${pathPrefix}`)), message: expect.any(String) },
        ]),
      );
    },
  );

  it('When the body externalId differs from the path one, then 422 validation_failed on /externalId', async () => {
    const body = reservation();
    await loc.api.post(`${P}/reservations`).send(body).expect(201);

    const res = await loc.api
      .put(`${P}/reservations/${body['externalId']}`)
      .send({ ...body, externalId: 'other', updatedAt: nextUpdatedAt() });

    expectEnvelope(res, 422, 'validation_failed');
    expect(res.body.error.details).toEqual([{ path: '/externalId', message: expect.any(String) }]);
  });

  it('When a PUT has no body at all, then 422 validation_failed', async () => {
    expectEnvelope(await loc.api.put(`${P}/reservations/r-1`), 422, 'validation_failed');
  });
});
