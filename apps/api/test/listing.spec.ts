import { expectEnvelope } from './support/envelope';
import { Harness, type TestLocation } from './support/harness';
import { P, reservation } from './support/wire';

/**
 * docs/reference/provider-api.md#list-reservations (and #list-deliveries): query parameters and
 * their bounds.
 */
let h: Harness;
beforeAll(async () => {
  h = await Harness.start();
});
afterAll(async () => {
  await h?.stop();
});

let loc: TestLocation;
beforeEach(async () => {
  loc = await h.location({ plan: 'none' });
});

const WINDOW = 'from=2026-11-01T00:00:00Z&to=2026-12-01T00:00:00Z';
const list = (query: string) => loc.api.get(`${P}/reservations?${query}`);

describe('GET /reservations parameters', () => {
  it.each([
    ['limit=1', 200],
    ['limit=500', 200],
    ['limit=0', 422],
    ['limit=501', 422],
    ['limit=-1', 422],
    ['limit=1.5', 422],
    ['limit=ten', 422],
    ['limit=', 422],
    ['limit=1&limit=2', 422],
  ])('When the window is listed with %s, then %i', async (param, status) => {
    const res = await list(`${WINDOW}&${param}`);

    if (status === 200) expect(res.status).toBe(200);
    else {
      expectEnvelope(res, 422, 'validation_failed');
      expect(res.body.error.details).toContainEqual({ path: '/limit', message: expect.any(String) });
    }
  });

  it('When no limit is given, then at most 100 come back with a cursor to the rest', async () => {
    for (let i = 0; i < 101; i += 1) {
      await loc.api
        .post(`${P}/reservations`)
        .send(reservation({ startsAt: `2026-11-21T19:${String(i % 60).padStart(2, '0')}Z` }))
        .expect(201);
    }

    const first = await list(WINDOW).expect(200);
    const rest = await list(`${WINDOW}&cursor=${encodeURIComponent(first.body.nextCursor)}`).expect(200);

    expect(first.body.reservations).toHaveLength(100);
    expect(first.body.nextCursor).toEqual(expect.any(String));
    expect(rest.body.reservations).toHaveLength(1);
    expect(rest.body.nextCursor).toBeNull();
    const ids = [...first.body.reservations, ...rest.body.reservations].map((r: { id: string }) => r.id);
    expect(new Set(ids).size).toBe(101);
  });

  it.each([
    ['a window of exactly 31 days', 'from=2026-11-01T00:00Z&to=2026-12-02T00:00Z', 200],
    ['a window of 31 days in offsets', 'from=2026-11-01T00:00%2B01:00&to=2026-12-02T00:00%2B01:00', 200],
    ['a window 1 µs over 31 days', 'from=2026-11-01T00:00Z&to=2026-12-02T00:00:00.000001Z', 422],
    ['a window of 32 days', 'from=2026-11-01T00:00Z&to=2026-12-03T00:00Z', 422],
    ['from equal to to', 'from=2026-11-01T00:00Z&to=2026-11-01T00:00Z', 422],
    ['from equal to to in another offset', 'from=2026-11-01T01:00%2B01:00&to=2026-11-01T00:00Z', 422],
    ['from after to', 'from=2026-11-02T00:00Z&to=2026-11-01T00:00Z', 422],
    ['a window of 1 µs', 'from=2026-11-01T00:00Z&to=2026-11-01T00:00:00.000001Z', 200],
    ['no from', 'to=2026-11-01T00:00Z', 422],
    ['no to', 'from=2026-11-01T00:00Z', 422],
    ['no parameters at all', '', 422],
    ['an unknown parameter', `${WINDOW}&status=cancelled`, 422],
    ['a malformed cursor', `${WINDOW}&cursor=not-a-cursor`, 422],
    ['an empty cursor', `${WINDOW}&cursor=`, 422],
    ['two from parameters', `${WINDOW}&from=2026-11-02T00:00Z`, 422],
  ])('When the list asks for %s, then %i', async (_case, query, status) => {
    const res = await list(query);

    if (status === 200) expect(res.status).toBe(200);
    else expectEnvelope(res, 422, 'validation_failed');
  });

  it('When a reservation starts exactly at from or exactly at to, then only the one at from is listed', async () => {
    await loc.api
      .post(`${P}/reservations`)
      .send(reservation({ startsAt: '2026-11-01T00:00:00Z' }))
      .expect(201);
    await loc.api
      .post(`${P}/reservations`)
      .send(reservation({ startsAt: '2026-12-01T00:00:00Z' }))
      .expect(201);

    const res = await list(WINDOW).expect(200);

    expect(res.body.reservations.map((r: { startsAt: string }) => r.startsAt)).toEqual([
      '2026-11-01T00:00:00.000Z',
    ]);
  });
});

describe('GET /webhook-deliveries parameters', () => {
  it.each([
    ['', 200],
    ['status=pending', 200],
    ['status=succeeded', 200],
    ['status=failed', 200],
    ['limit=1', 200],
    ['limit=500', 200],
    ['status=delivered', 422],
    ['limit=0', 422],
    ['limit=501', 422],
    ['cursor=%%%', 422],
    ['cursor=bm90LWEtY3Vyc29y', 422],
    ['eventType=table.freed', 422],
  ])('When deliveries are listed with "%s", then %i', async (query, status) => {
    const res = await loc.api.get(`${P}/webhook-deliveries?${query}`);

    if (status === 200) expect(res.body).toEqual({ deliveries: [], nextCursor: null });
    else expectEnvelope(res, 422, 'validation_failed');
  });
});

describe('forged cursors', () => {
  const forged = (position: object) => Buffer.from(JSON.stringify(position)).toString('base64url');
  const ID = '01a20ef4-d8ba-722a-866a-2158e9014a75';

  it.each([
    ['another listing', { k: 'd', t: '1763751600000000', i: ID }],
    ['an extra field', { k: 'r', t: '1763751600000000', i: ID, x: 1 }],
    ['a fractional position', { k: 'r', t: '1.5', i: ID }],
  ])(
    'When a reservation cursor is forged with %s, then 422 validation_failed at /cursor',
    async (_case, position) => {
      const res = await list(`${WINDOW}&cursor=${forged(position)}`);

      expectEnvelope(res, 422, 'validation_failed');
      expect(res.body.error.details).toEqual([{ path: '/cursor', message: expect.any(String) }]);
    },
  );

  it.each([
    ['reservations', () => list(`${WINDOW}&cursor=${forged({ k: 'r', t: '99999999999999999999', i: ID })}`)],
    [
      'deliveries',
      () =>
        loc.api.get(
          `${P}/webhook-deliveries?cursor=${forged({ k: 'd', t: '-99999999999999999999', i: ID })}`,
        ),
    ],
  ])(
    'When a %s cursor is forged with a position beyond any date, then 422 validation_failed',
    async (_case, call) => {
      expectEnvelope(await call(), 422, 'validation_failed');
    },
  );
});
