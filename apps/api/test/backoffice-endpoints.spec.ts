import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expectEnvelope } from './support/envelope';
import { Harness } from './support/harness';
import { B, P, UTC_MILLIS, reservation } from './support/wire';

/**
 * The operator surface (docs/reference/backoffice-api.md): locations, keys, the working plan,
 * publish, table edits.
 */
let h: Harness;
beforeAll(async () => {
  h = await Harness.start();
});
afterAll(async () => {
  await h?.stop();
});

const NO_SUCH_ID = '0b7e7a4e-5f43-4c39-9f43-7d1f1d7c0000';

describe('Locations and API keys', () => {
  it.each([
    ['without a currency', { name: 'Chez Nous', brand: 'chez' }, 'EUR'],
    ['with a currency', { name: 'The Crown', brand: 'crown2', currency: 'GBP' }, 'GBP'],
  ])(
    'When a location is created %s, then 201 with exactly id, name, brand, currency and sandbox false',
    async (_c, body, currency) => {
      const res = await h.operator.post(`${B}/locations`).send(body);

      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        id: expect.any(String),
        name: body.name,
        brand: body.brand,
        currency,
        sandbox: false,
      });
    },
  );

  it.each([
    ['name', { name: '', brand: 'ab' }, 422],
    ['name', { name: 'x'.repeat(1), brand: 'ab' }, 201],
    ['name', { name: 'x'.repeat(120), brand: 'ab' }, 201],
    ['name', { name: 'x'.repeat(121), brand: 'ab' }, 422],
    ['brand', { name: 'n', brand: 'a' }, 422],
    ['brand', { name: 'n', brand: 'a'.repeat(20) }, 201],
    ['brand', { name: 'n', brand: 'a'.repeat(21) }, 422],
    ['brand', { name: 'n', brand: 'Chez' }, 422],
    ['brand', { name: 'n', brand: 'chez_1' }, 422],
    ['currency', { name: 'n', brand: 'ab', currency: 'eur' }, 422],
    ['currency', { name: 'n', brand: 'ab', currency: 'EURO' }, 422],
    ['currency', { name: 'n', brand: 'ab', currency: 'EU' }, 422],
    ['an unknown property', { name: 'n', brand: 'ab', city: 'Paris' }, 422],
  ])('When a location is created with a bound of %s (%j), then %i', async (_field, body, status) => {
    const res = await h.operator.post(`${B}/locations`).send(body);

    if (status === 201) expect(res.status).toBe(201);
    else expectEnvelope(res, 422, 'validation_failed');
  });

  it('When a key is issued, then 201 with its id, the full key shown once and createdAt; the key works', async () => {
    const created = await h.operator.post(`${B}/locations`).send({ name: 'K', brand: 'kbrand' }).expect(201);

    const res = await h.operator.post(`${B}/locations/${created.body.id}/api-keys`);

    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(String),
      key: expect.stringMatching(/^kbrand_sk_live_[A-Za-z0-9]{32,}$/),
      createdAt: expect.stringMatching(UTC_MILLIS),
    });
    await h.client(res.body.key).get(`${P}/webhook-deliveries`).expect(200);
  });

  it('When a key is revoked, then 204 with no body and the key is refused with 401 at once; revoking again changes nothing', async () => {
    const loc = await h.location({ plan: 'none' });
    await loc.api.get(`${P}/webhook-deliveries`).expect(200);

    const res = await h.operator.delete(loc.ops(`/api-keys/${loc.keyId}`));

    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expectEnvelope(await loc.api.get(`${P}/webhook-deliveries`), 401, 'unauthorized');
    await h.operator.delete(loc.ops(`/api-keys/${loc.keyId}`)).expect(204);
    expectEnvelope(await loc.api.get(`${P}/webhook-deliveries`), 401, 'unauthorized');
  });

  it.each([
    ['issue a key at an unknown location', 'post', `/locations/${NO_SUCH_ID}/api-keys`],
    ['issue a key at a malformed location id', 'post', '/locations/not-a-uuid/api-keys'],
    ['revoke an unknown key', 'delete', `/locations/${NO_SUCH_ID}/api-keys/${NO_SUCH_ID}`],
    ['read the working plan of an unknown location', 'get', `/locations/${NO_SUCH_ID}/floorplan/working`],
    ['publish at an unknown location', 'post', `/locations/${NO_SUCH_ID}/floorplan/publish`],
    ['list the orders of an unknown location', 'get', `/locations/${NO_SUCH_ID}/orders`],
    ['close an unknown order', 'post', `/locations/${NO_SUCH_ID}/orders/${NO_SUCH_ID}/close`],
    ['void a malformed order id', 'post', `/locations/${NO_SUCH_ID}/orders/123/void`],
  ] as const)('When the operator tries to %s, then 404 not_found', async (_case, method, path) => {
    expectEnvelope(await h.operator[method](`${B}${path}`), 404, 'not_found');
  });

  it('When another location tries to revoke a key through its own path, then 404 and the key still works', async () => {
    const owner = await h.location({ plan: 'none' });
    const other = await h.location({ plan: 'none' });

    expectEnvelope(await h.operator.delete(other.ops(`/api-keys/${owner.keyId}`)), 404, 'not_found');
    await owner.api.get(`${P}/webhook-deliveries`).expect(200);
  });
});

describe('Working plan, publish and table edits', () => {
  it('When a location has no plan, then the working plan is empty and publishing is 422', async () => {
    const loc = await h.location({ plan: 'none' });

    const working = await h.operator.get(loc.ops('/floorplan/working'));
    const publish = await h.operator.post(loc.ops('/floorplan/publish'));

    expect(working.status).toBe(200);
    expect(working.body).toEqual({ status: 'empty', publishedVersion: null, publishedAt: null, rooms: [] });
    expectEnvelope(publish, 422, 'validation_failed');
  });

  it('When a draft with decorations is imported, then the working plan shows every field with defaults filled', async () => {
    const loc = await h.location({ plan: 'none' });
    const body = {
      rooms: [
        {
          externalId: 'main',
          name: 'Main',
          order: 3,
          canvasWidth: 800,
          canvasHeight: 600,
          tables: [
            { externalId: 'A', label: 'A', seatCount: 6, x: 0, y: 600, rotation: -90 },
            {
              externalId: 'B',
              label: 'B',
              seatCount: 2,
              x: 10,
              y: 10,
              minCovers: 2,
              maxCovers: 3,
              shape: 'square',
            },
          ],
          decorations: [
            { kind: 'bar', x: 5, y: 5, width: 80, height: 600 },
            { kind: 'label', x: 50, y: 60, width: 100, height: 30, rotation: 370, text: 'Bar' },
          ],
        },
      ],
    };
    const imported = await loc.api.post(`${P}/floorplan/import`).send(body).expect(201);

    const res = await h.operator.get(loc.ops('/floorplan/working'));

    expect(res.status).toBe(200);
    const roomId = imported.body.rooms[0].roomId;
    const [a, b] = imported.body.mapping.map((m: { tableId: string }) => m.tableId);
    expect(res.body).toEqual({
      status: 'draft',
      publishedVersion: null,
      publishedAt: null,
      rooms: [
        {
          id: roomId,
          externalId: 'main',
          name: 'Main',
          order: 3,
          canvasWidth: 800,
          canvasHeight: 600,
          decorations: [
            { kind: 'bar', x: 5, y: 5, width: 80, height: 600, rotation: 0, text: null },
            { kind: 'label', x: 50, y: 60, width: 100, height: 30, rotation: 10, text: 'Bar' },
          ],
          tables: [
            {
              id: a,
              roomId,
              externalId: 'A',
              label: 'A',
              shape: 'rectangle',
              seatCount: 6,
              minCovers: 1,
              maxCovers: 6,
              active: true,
              x: 0,
              y: 600,
              rotation: 270,
            },
            {
              id: b,
              roomId,
              externalId: 'B',
              label: 'B',
              shape: 'square',
              seatCount: 2,
              minCovers: 2,
              maxCovers: 3,
              active: true,
              x: 10,
              y: 10,
              rotation: 0,
            },
          ],
        },
      ],
    });
  });

  it('When the operator publishes twice, then versions 1 and 2 and the working plan says published', async () => {
    const loc = await h.location({ plan: 'draft' });

    const first = await h.operator.post(loc.ops('/floorplan/publish'));
    const second = await h.operator.post(loc.ops('/floorplan/publish'));

    expect(first.status).toBe(200);
    expect(first.body).toEqual({ version: 1, publishedAt: expect.stringMatching(UTC_MILLIS) });
    expect(second.body).toEqual({ version: 2, publishedAt: expect.stringMatching(UTC_MILLIS) });
    const working = await h.operator.get(loc.ops('/floorplan/working')).expect(200);
    expect(working.body).toMatchObject({
      status: 'published',
      publishedVersion: 2,
      publishedAt: second.body.publishedAt,
    });
    expect((await loc.api.get(`${P}/floorplan`).expect(200)).body.version).toBe(2);
  });

  it('When a table is renamed, moved and deactivated, then 200 with the working table, and the provider sees it only after the next publish', async () => {
    const loc = await h.location({ tables: 2 });
    const [t1] = loc.tables;

    const res = await h.operator.patch(loc.ops(`/tables/${t1}`)).send({
      label: 'Window',
      active: false,
      x: 1000,
      y: 0,
      rotation: 450,
      seatCount: 8,
      maxCovers: 10,
      shape: 'rectangle',
    });

    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: t1,
      roomId: expect.any(String),
      externalId: 'R1-T1',
      label: 'Window',
      shape: 'rectangle',
      seatCount: 8,
      minCovers: 1,
      maxCovers: 10,
      active: false,
      x: 1000,
      y: 0,
      rotation: 90,
    });
    const tableOf = (plan: { rooms: { tables: { id: string }[] }[] }) =>
      plan.rooms[0]!.tables.find((t) => t.id === t1);
    const before = await loc.api.get(`${P}/floorplan`).expect(200);
    expect(tableOf(before.body)).toMatchObject({ label: '1.1', active: true });
    await h.operator.post(loc.ops('/floorplan/publish')).expect(200);
    const after = await loc.api.get(`${P}/floorplan`).expect(200);
    expect(after.body.version).toBe(2);
    expect(tableOf(after.body)).toEqual({
      id: t1,
      label: 'Window',
      shape: 'rectangle',
      seatCount: 8,
      minCovers: 1,
      maxCovers: 10,
      active: false,
      x: 1000,
      y: 0,
      rotation: 90,
    });
  });

  it('When a table is deactivated and republished, then reservations naming it get 422 unknown_table_id', async () => {
    const loc = await h.location({ tables: 2 });
    await h.operator
      .patch(loc.ops(`/tables/${loc.tables[0]}`))
      .send({ active: false })
      .expect(200);
    await h.operator.post(loc.ops('/floorplan/publish')).expect(200);

    const res = await loc.api.post(`${P}/reservations`).send(reservation({ tableIds: [loc.tables[0]] }));

    expectEnvelope(res, 422, 'unknown_table_id');
    expect(res.body.error.message).toContain(loc.tables[0]);
  });

  it.each([
    ['an empty patch', {}],
    ['minCovers above maxCovers', { minCovers: 5, maxCovers: 4 }],
    ['a centre outside the canvas', { x: 1000.5 }],
    ['a negative coordinate', { y: -1 }],
    ['a label of 41 characters', { label: 'x'.repeat(41) }],
    ['an empty label', { label: '' }],
    ['seatCount 0', { seatCount: 0 }],
    ['seatCount 1001', { seatCount: 1001 }],
    ['an unknown shape', { shape: 'oval' }],
    ['an unknown property', { id: 'x' }],
  ])('When a table patch has %s, then 422 validation_failed', async (_case, patch) => {
    const loc = await h.location({ plan: 'draft', tables: 1 });

    expectEnvelope(
      await h.operator.patch(loc.ops(`/tables/${loc.tables[0]}`)).send(patch),
      422,
      'validation_failed',
    );
  });

  it('When the patched table is not in the location, then 404 not_found', async () => {
    const loc = await h.location({ plan: 'draft', tables: 1 });
    const other = await h.location({ plan: 'draft', tables: 1 });

    expectEnvelope(
      await h.operator.patch(loc.ops(`/tables/${other.tables[0]}`)).send({ label: 'x' }),
      404,
      'not_found',
    );
  });
});

describe('Backoffice authentication', () => {
  it.each([
    ['no credential', null],
    ['a wrong token', 'test-backoffice-token-0124'],
    ['a provider key', 'prov_sk_live_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'],
  ])(
    'When the operator surface is called with %s, then 401 unauthorized with WWW-Authenticate: Bearer',
    async (_case, token) => {
      const res = await h.client(token).post(`${B}/locations`).send({ name: 'x', brand: 'xx' });

      expectEnvelope(res, 401, 'unauthorized');
      expect(res.headers['www-authenticate']).toBe('Bearer');
    },
  );

  it("When a provider key's location is used on the backoffice, then it is refused and nothing changes", async () => {
    const loc = await h.location({ plan: 'draft' });

    expectEnvelope(await loc.api.post(loc.ops('/floorplan/publish')), 401, 'unauthorized');
    expect((await h.operator.get(loc.ops('/floorplan/working')).expect(200)).body.status).toBe('draft');
  });
});

it('When the sample floor plan shipped in examples/ is imported, then it is accepted as the README promises', async () => {
  const loc = await h.location({ plan: 'none' });
  const sample = JSON.parse(readFileSync(join(__dirname, '../../../examples/floorplan.json'), 'utf8'));

  const res = await loc.api.post(`${P}/floorplan/import`).send(sample);

  expect(res.status).toBe(201);
  expect(res.body.mapping.map((m: { externalTableId: string }) => m.externalTableId)).toEqual([
    'T1',
    'T2',
    'T3',
    'T4',
    'T5',
    'T6',
    'P1',
    'P2',
  ]);
});
