import { expectEnvelope } from './support/envelope';
import { Harness, type TestLocation } from './support/harness';
import { P, nextUpdatedAt, reservation, type Json } from './support/wire';

/**
 * docs/reference/errors.md#check-order: authentication, then the body, then existence, then staleness,
 * then the floor plan and table ids, then occupancy; the first check that fails answers.
 * One test per adjacent pair (and a few across), each failing both checks at once.
 */
let h: Harness;
beforeAll(async () => {
  h = await Harness.start();
});
afterAll(async () => {
  await h?.stop();
});

const NO_TABLE = '3b8f6a0e-1c2d-4e5f-8a9b-0c1d2e3f4a5b';
let loc: TestLocation;
beforeEach(async () => {
  loc = await h.location();
});

async function created(overrides: Json = {}): Promise<Json> {
  const body = reservation(overrides);
  await loc.api.post(`${P}/reservations`).send(body).expect(201);
  return body;
}

const older = (body: Json) => new Date(Date.parse(body['updatedAt'] as string) - 1000).toISOString();

describe('authentication before the body', () => {
  it.each([
    ['not JSON', 'application/json', '{"externalId":'],
    ['sent as text/plain', 'text/plain', JSON.stringify(reservation())],
    ['holding an unknown property', 'application/json', JSON.stringify(reservation({ typo: 1 }))],
  ])('When a request without a valid key carries a body %s, then 401', async (_case, type, body) => {
    const res = await h
      .client('test_sk_live_BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB')
      .post(`${P}/reservations`)
      .set('Content-Type', type)
      .send(body);

    expectEnvelope(res, 401, 'unauthorized');
  });
});

describe('the body before existence', () => {
  it('When a PUT names an unknown externalId with an invalid body, then 422, not 404', async () => {
    const body = reservation({ covers: 0 });

    expectEnvelope(
      await loc.api.put(`${P}/reservations/${body['externalId']}`).send(body),
      422,
      'validation_failed',
    );
  });

  it('When a PUT names an unknown externalId and the body names another, then 422 for the mismatch, not 404', async () => {
    const body = reservation();

    expectEnvelope(
      await loc.api.put(`${P}/reservations/not-${body['externalId']}`).send(body),
      422,
      'validation_failed',
    );
  });

  it('When a POST repeats a held externalId with an invalid body, then 422, not 409 duplicate_reservation', async () => {
    const held = await created();

    const res = await loc.api.post(`${P}/reservations`).send({ ...held, status: 'seated', tableIds: [] });

    expectEnvelope(res, 422, 'validation_failed');
  });
});

describe('existence before staleness', () => {
  it('When a POST repeats a held externalId with an older updatedAt, then 409 duplicate_reservation, not 200 stale', async () => {
    const held = await created();

    const res = await loc.api.post(`${P}/reservations`).send({ ...held, updatedAt: older(held) });

    expectEnvelope(res, 409, 'duplicate_reservation');
  });
});

describe('staleness before the floor plan and table ids', () => {
  it('When a stale PUT names an unknown table, then 200 stale, not 422 unknown_table_id', async () => {
    const held = await created();

    const res = await loc.api
      .put(`${P}/reservations/${held['externalId']}`)
      .send({ ...held, tableIds: [NO_TABLE], updatedAt: older(held) });

    expect(res.status).toBe(200);
    expect(res.body.outcome).toBe('stale');
    expect(res.body.reservation.tableIds).toEqual([]);
  });

  it('When a stale PUT names tables before the first publish, then 200 stale, not 409 floorplan_not_published', async () => {
    loc = await h.location({ plan: 'draft' });
    const held = await created();

    const res = await loc.api
      .put(`${P}/reservations/${held['externalId']}`)
      .send({ ...held, tableIds: [loc.tables[0]], updatedAt: older(held) });

    expect(res.status).toBe(200);
    expect(res.body.outcome).toBe('stale');
  });

  it('When an old retry of a seat arrives after its table was deactivated, then 200 stale (the retry stays safe)', async () => {
    const seat = await created({ status: 'seated', tableIds: [loc.tables[0]] });
    await h.operator
      .patch(loc.ops(`/tables/${loc.tables[0]}`))
      .send({ active: false })
      .expect(200);
    await h.operator.post(loc.ops('/floorplan/publish')).expect(200);

    const res = await loc.api.put(`${P}/reservations/${seat['externalId']}`).send(seat);

    expect(res.status).toBe(200);
    expect(res.body.outcome).toBe('stale');
  });

  it('When a stale PUT seats on a taken table, then 200 stale, not 409 table_occupied', async () => {
    const held = await created();
    await h.walkIn(loc, [loc.tables[0]!]);

    const res = await loc.api
      .put(`${P}/reservations/${held['externalId']}`)
      .send({ ...held, status: 'seated', tableIds: [loc.tables[0]], updatedAt: older(held) });

    expect(res.status).toBe(200);
    expect(res.body.outcome).toBe('stale');
  });
});

describe('existence before the floor plan, tables and occupancy', () => {
  it('When a PUT names an unknown externalId and an unknown table, then 404, not 422 unknown_table_id', async () => {
    const body = reservation({ tableIds: [NO_TABLE] });

    expectEnvelope(
      await loc.api.put(`${P}/reservations/${body['externalId']}`).send(body),
      404,
      'unknown_reservation',
    );
  });

  it('When a POST repeats a held externalId seated on a taken table, then 409 duplicate_reservation, not table_occupied', async () => {
    const held = await created();
    await h.walkIn(loc, [loc.tables[0]!]);

    const res = await loc.api
      .post(`${P}/reservations`)
      .send({ ...held, status: 'seated', tableIds: [loc.tables[0]], updatedAt: nextUpdatedAt() });

    expectEnvelope(res, 409, 'duplicate_reservation');
  });
});

describe('table ids before occupancy', () => {
  it('When a seat names a taken table and an unknown one, then 422 unknown_table_id, not 409 table_occupied', async () => {
    await h.walkIn(loc, [loc.tables[0]!]);

    const res = await loc.api
      .post(`${P}/reservations`)
      .send(reservation({ status: 'seated', tableIds: [loc.tables[0], NO_TABLE] }));

    expectEnvelope(res, 422, 'unknown_table_id');
  });

  it('When a seat names a taken table and an inactive one, then 422 unknown_table_id, not 409', async () => {
    await h.walkIn(loc, [loc.tables[0]!]);
    await h.operator
      .patch(loc.ops(`/tables/${loc.tables[1]}`))
      .send({ active: false })
      .expect(200);
    await h.operator.post(loc.ops('/floorplan/publish')).expect(200);

    const res = await loc.api
      .post(`${P}/reservations`)
      .send(reservation({ status: 'seated', tableIds: [loc.tables[0], loc.tables[1]] }));

    expectEnvelope(res, 422, 'unknown_table_id');
    expect(res.body.error.message).toContain(loc.tables[1]);
  });

  it('When the refused write was a create, then nothing was created (the POST can be sent again)', async () => {
    await h.walkIn(loc, [loc.tables[0]!]);
    const body = reservation({ status: 'seated', tableIds: [loc.tables[0]] });
    expectEnvelope(await loc.api.post(`${P}/reservations`).send(body), 409, 'table_occupied');

    const again = await loc.api.post(`${P}/reservations`).send({ ...body, tableIds: [loc.tables[1]] });

    expect(again.status).toBe(201);
  });
});
