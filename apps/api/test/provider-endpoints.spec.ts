import { expectEnvelope } from './support/envelope';
import { Harness } from './support/harness';
import { P, UTC_MILLIS, planImport } from './support/wire';

/** The provider API besides reservations: floor plan, webhook endpoint and deliveries, the OpenAPI document. */
let h: Harness;
beforeAll(async () => {
  h = await Harness.start();
});
afterAll(async () => {
  await h?.stop();
});

describe('Floor plan', () => {
  it('When a plan is imported, then 201 with the room and table mappings in the exact form', async () => {
    const loc = await h.location({ plan: 'none' });

    const res = await loc.api.post(`${P}/floorplan/import`).send(planImport({ rooms: 2, tables: 2 }));

    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      rooms: [
        { externalRoomId: 'R1', roomId: expect.any(String), name: 'Room 1' },
        { externalRoomId: 'R2', roomId: expect.any(String), name: 'Room 2' },
      ],
      mapping: ['R1-T1', 'R1-T2', 'R2-T1', 'R2-T2'].map((externalTableId) => ({
        externalTableId,
        tableId: expect.stringMatching(/^[0-9a-f-]{36}$/),
        label: externalTableId.slice(1).replace('-T', '.'),
      })),
    });
  });

  it('When the plan is published, then GET floorplan answers 200 with version 1 and every table field, defaults filled', async () => {
    const loc = await h.location({ plan: 'draft', tables: 1 });
    const published = await h.operator.post(loc.ops('/floorplan/publish')).expect(200);

    const res = await loc.api.get(`${P}/floorplan`);

    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      version: 1,
      publishedAt: published.body.publishedAt,
      rooms: [
        {
          id: expect.any(String),
          name: 'Room 1',
          order: 0,
          tables: [
            {
              id: loc.tables[0],
              label: '1.1',
              shape: 'round',
              seatCount: 4,
              minCovers: 1,
              maxCovers: 4,
              active: true,
              x: 100,
              y: 100,
              rotation: 0,
            },
          ],
        },
      ],
    });
    expect(res.body.publishedAt).toMatch(UTC_MILLIS);
  });
});

describe('Webhook endpoint', () => {
  const ENDPOINT_KEYS = [
    'createdAt',
    'disabledAt',
    'disabledReason',
    'events',
    'secret',
    'status',
    'updatedAt',
    'url',
  ];
  const ALL_EVENTS = ['floorplan.published', 'table.occupied', 'table.freed', 'table.spend_updated'];

  it('When an endpoint is registered, read, replaced, rotated and deleted, then each answers in its documented form', async () => {
    const loc = await h.location({ plan: 'none' });

    const put = await loc.api.put(`${P}/webhook-endpoint`).send({ url: 'https://hooks.example.test/pis' });
    expect(put.status).toBe(200);
    expect(Object.keys(put.body).sort()).toEqual(ENDPOINT_KEYS);
    expect(put.body).toEqual({
      url: 'https://hooks.example.test/pis',
      events: expect.arrayContaining(ALL_EVENTS),
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]+={0,2}$/),
      createdAt: expect.stringMatching(UTC_MILLIS),
      updatedAt: expect.stringMatching(UTC_MILLIS),
      status: 'enabled',
      disabledAt: null,
      disabledReason: null,
    });
    expect(put.body.events).toHaveLength(6);
    expect(Buffer.from(put.body.secret.slice(6), 'base64').length).toBeGreaterThanOrEqual(24);

    const got = await loc.api.get(`${P}/webhook-endpoint`).expect(200);
    expect(got.body).toEqual(put.body);

    const replaced = await loc.api
      .put(`${P}/webhook-endpoint`)
      .send({ url: 'http://127.0.0.1:9/other', events: ['table.occupied'] })
      .expect(200);
    expect(replaced.body).toEqual({
      ...put.body,
      url: 'http://127.0.0.1:9/other',
      events: ['table.occupied'],
      updatedAt: expect.stringMatching(UTC_MILLIS),
    });

    const rotated = await loc.api.post(`${P}/webhook-endpoint/rotate-secret`).expect(200);
    expect(Object.keys(rotated.body).sort()).toEqual(ENDPOINT_KEYS);
    expect(rotated.body.secret).not.toBe(put.body.secret);
    expect(rotated.body.secret).toMatch(/^whsec_/);
    expect(rotated.body.createdAt).toBe(put.body.createdAt);

    const deleted = await loc.api.delete(`${P}/webhook-endpoint`);
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe('');

    expectEnvelope(await loc.api.get(`${P}/webhook-endpoint`), 404, 'not_found');
    expectEnvelope(await loc.api.delete(`${P}/webhook-endpoint`), 404, 'not_found');
    expectEnvelope(await loc.api.post(`${P}/webhook-endpoint/rotate-secret`), 404, 'not_found');
  });

  it('When no delivery exists, then the list is empty with no next page, and redelivering an unknown one is 404', async () => {
    const loc = await h.location({ plan: 'none' });

    const list = await loc.api.get(`${P}/webhook-deliveries`);
    const redeliver = await loc.api.post(
      `${P}/webhook-deliveries/6f1c1d8e-0000-4000-8000-000000000000/redeliver`,
    );

    expect(list.status).toBe(200);
    expect(list.body).toEqual({ deliveries: [], nextCursor: null });
    expectEnvelope(redeliver, 404, 'not_found');
  });
});

describe('GET /openapi.json', () => {
  it('When the document is fetched without a credential, then 200 with an OpenAPI 3.1 document listing every provider path', async () => {
    const res = await h.anonymous.get(`${P}/openapi.json`);

    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body.openapi).toBe('3.1.0');
    expect(res.body.info.version).toBe('1.0.0');
    expect(Object.keys(res.body.paths)).toEqual(
      expect.arrayContaining([
        `${P}/reservations`,
        `${P}/reservations/{externalId}`,
        `${P}/floorplan`,
        `${P}/floorplan/import`,
        `${P}/webhook-endpoint`,
        `${P}/webhook-endpoint/rotate-secret`,
        `${P}/webhook-deliveries`,
        `${P}/webhook-deliveries/{deliveryId}/redeliver`,
      ]),
    );
  });
});
