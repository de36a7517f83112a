import { expectEnvelope } from './support/envelope';
import { Harness, type TestLocation } from './support/harness';
import { P, type Json } from './support/wire';

/**
 * What the operator console reads besides the working plan and the orders: the publish
 * preview, and the delivery log with redeliver (docs/reference/backoffice-api.md).
 */
let h: Harness;
beforeAll(async () => {
  h = await Harness.start();
});
afterAll(async () => {
  await h?.stop();
});

const NO_SUCH_ID = '0b7e7a4e-5f43-4c39-9f43-7d1f1d7c0000';
const NONE = { added: [], deactivated: [], reactivated: [], relabelled: [], updated: [] };

describe('Publish preview', () => {
  it('When the plan was never published, then no published plan and every table would be added', async () => {
    const loc = await h.location({ plan: 'draft', tables: 3 });

    const res = await h.operator.get(loc.ops('/floorplan/publish-preview')).expect(200);

    expect(res.body).toEqual({ published: null, changes: { ...NONE, added: loc.tables } });
  });

  it('When tables were edited since the publish, then the published plan and each pending change; after publishing, none', async () => {
    const loc = await h.location({ tables: 3 });
    const [a, b, c] = loc.tables as [string, string, string];
    await h.operator
      .patch(loc.ops(`/tables/${a}`))
      .send({ label: 'Window' })
      .expect(200);
    await h.operator
      .patch(loc.ops(`/tables/${b}`))
      .send({ active: false })
      .expect(200);
    await h.operator
      .patch(loc.ops(`/tables/${c}`))
      .send({ x: 500, y: 600, rotation: 45 })
      .expect(200);
    const provider = (await loc.api.get(`${P}/floorplan`).expect(200)).body as Json;

    const before = await h.operator.get(loc.ops('/floorplan/publish-preview')).expect(200);
    await h.operator.post(loc.ops('/floorplan/publish')).expect(200);
    const after = await h.operator.get(loc.ops('/floorplan/publish-preview')).expect(200);

    expect(before.body).toEqual({
      published: provider,
      changes: {
        ...NONE,
        deactivated: [b],
        relabelled: [{ tableId: a, from: '1.1', to: 'Window' }],
        updated: [c],
      },
    });
    expect(after.body.published.version).toBe((provider['version'] as number) + 1);
    expect(after.body.changes).toEqual(NONE);
  });

  it('When the location has no plan, then nothing would change', async () => {
    const loc = await h.location({ plan: 'none' });

    const res = await h.operator.get(loc.ops('/floorplan/publish-preview')).expect(200);

    expect(res.body).toEqual({ published: null, changes: NONE });
  });

  it('When the location is unknown or not a UUID, then 404 not_found', async () => {
    expectEnvelope(
      await h.operator.get(`/api/backoffice/v1/locations/${NO_SUCH_ID}/floorplan/publish-preview`),
      404,
      'not_found',
    );
    expectEnvelope(
      await h.operator.get('/api/backoffice/v1/locations/nope/floorplan/publish-preview'),
      404,
      'not_found',
    );
  });

  it('When the backoffice token is missing or a provider key is sent, then 401 with WWW-Authenticate', async () => {
    const loc = await h.location({ plan: 'draft' });

    for (const client of [h.anonymous, loc.api]) {
      const res = await client.get(loc.ops('/floorplan/publish-preview'));
      expectEnvelope(res, 401, 'unauthorized');
      expect(res.headers['www-authenticate']).toBe('Bearer');
    }
  });
});

describe('Delivery log for the operator', () => {
  /** A location with an endpoint and the deliveries of one publish, relayed (nothing sends them here). */
  async function withDeliveries(): Promise<TestLocation & { deliveryId: string }> {
    const loc = await h.location({ plan: 'draft' });
    await loc.api.put(`${P}/webhook-endpoint`).send({ url: 'https://hooks.example.test/hook' }).expect(200);
    await h.operator.post(loc.ops('/floorplan/publish')).expect(200);
    await h.relayOutbox();
    const listed = await loc.api.get(`${P}/webhook-deliveries`).expect(200);
    return { ...loc, deliveryId: listed.body.deliveries[0].id };
  }

  it('When the operator lists a location deliveries, then the very page the provider reads', async () => {
    const loc = await withDeliveries();

    const operator = await h.operator.get(loc.ops('/webhook-deliveries?limit=5')).expect(200);
    const provider = await loc.api.get(`${P}/webhook-deliveries?limit=5`).expect(200);

    expect(operator.body).toEqual(provider.body);
    expect(operator.body.deliveries.map((d: Json) => d['eventType'])).toEqual(['floorplan.published']);
  });

  it('When the operator filters or pages, then the provider parameters apply; a bad one is 422', async () => {
    const loc = await withDeliveries();

    const failed = await h.operator.get(loc.ops('/webhook-deliveries?status=failed')).expect(200);
    expect(failed.body).toEqual({ deliveries: [], nextCursor: null });
    expectEnvelope(
      await h.operator.get(loc.ops('/webhook-deliveries?status=lost')),
      422,
      'validation_failed',
    );
    expectEnvelope(await h.operator.get(loc.ops('/webhook-deliveries?cursor=%%%')), 422, 'validation_failed');
  });

  it('When the operator redelivers, then 202 with the delivery id and the delivery is queued again from now', async () => {
    const loc = await withDeliveries();
    const [before] = (await h.operator.get(loc.ops('/webhook-deliveries')).expect(200)).body.deliveries;
    await new Promise((resolve) => setTimeout(resolve, 5));

    const res = await h.operator.post(loc.ops(`/webhook-deliveries/${loc.deliveryId}/redeliver`));

    expect(res.status).toBe(202);
    expect(res.body).toEqual({ deliveryId: loc.deliveryId });
    const [after] = (await h.operator.get(loc.ops('/webhook-deliveries')).expect(200)).body.deliveries;
    expect(after).toMatchObject({ id: loc.deliveryId, status: 'pending' });
    expect(after.updatedAt > before.updatedAt).toBe(true);
    expect(after.nextAttemptAt >= after.updatedAt).toBe(true);
  });

  it("When the delivery is unknown, another location's, or the location is unknown, then 404 not_found", async () => {
    const loc = await withDeliveries();
    const other = await h.location({ plan: 'none' });
    const unknownLocation = `/api/backoffice/v1/locations/${NO_SUCH_ID}`;

    for (const path of [
      loc.ops(`/webhook-deliveries/${NO_SUCH_ID}/redeliver`),
      loc.ops('/webhook-deliveries/not-a-uuid/redeliver'),
      other.ops(`/webhook-deliveries/${loc.deliveryId}/redeliver`),
      `${unknownLocation}/webhook-deliveries/${loc.deliveryId}/redeliver`,
    ]) {
      expectEnvelope(await h.operator.post(path), 404, 'not_found');
    }
    expectEnvelope(await h.operator.get(`${unknownLocation}/webhook-deliveries`), 404, 'not_found');
  });

  it('When the backoffice token is missing or a provider key is sent, then 401 and nothing is queued', async () => {
    const loc = await withDeliveries();
    const before = await h.operator.get(loc.ops('/webhook-deliveries')).expect(200);

    for (const client of [h.anonymous, loc.api]) {
      expectEnvelope(await client.get(loc.ops('/webhook-deliveries')), 401, 'unauthorized');
      expectEnvelope(
        await client.post(loc.ops(`/webhook-deliveries/${loc.deliveryId}/redeliver`)),
        401,
        'unauthorized',
      );
    }
    const after = await h.operator.get(loc.ops('/webhook-deliveries')).expect(200);
    expect(after.body).toEqual(before.body);
  });
});
