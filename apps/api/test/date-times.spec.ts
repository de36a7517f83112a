import { expectEnvelope } from './support/envelope';
import { Harness, type TestLocation } from './support/harness';
import { P, UTC_MILLIS, fullGuest, reservation, type Json } from './support/wire';

/**
 * docs/reference/limits-and-formats.md#date-times through the API: ISO 8601 with a mandatory
 * offset, seconds and fraction optional, calendar-valid, offsets up to ±23:59; responses in UTC
 * with milliseconds; instants compared at microsecond precision (digits beyond truncated).
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

const accepted: [sent: string, rendered: string][] = [
  ['2026-11-21T19:00Z', '2026-11-21T19:00:00.000Z'],
  ['2026-11-21T19:00:05Z', '2026-11-21T19:00:05.000Z'],
  ['2026-11-21T19:00+01:00', '2026-11-21T18:00:00.000Z'],
  ['2026-11-21T19:00:00.1Z', '2026-11-21T19:00:00.100Z'],
  ['2026-11-21T19:00:00.12Z', '2026-11-21T19:00:00.120Z'],
  ['2026-11-21T19:00:00.123Z', '2026-11-21T19:00:00.123Z'],
  ['2026-11-21T19:00:00.1239Z', '2026-11-21T19:00:00.123Z'],
  ['2026-11-21T19:00:00.12399Z', '2026-11-21T19:00:00.123Z'],
  ['2026-11-21T19:00:00.123999Z', '2026-11-21T19:00:00.123Z'],
  ['2026-11-21T19:00:00.1239999Z', '2026-11-21T19:00:00.123Z'],
  ['2026-11-21T19:00:00.12399999Z', '2026-11-21T19:00:00.123Z'],
  ['2026-11-21T19:00:00.999999999Z', '2026-11-21T19:00:00.999Z'],
  ['2026-11-21T23:59+23:59', '2026-11-21T00:00:00.000Z'],
  ['2026-11-21T00:00-23:59', '2026-11-21T23:59:00.000Z'],
  ['2026-11-21T19:00-00:30', '2026-11-21T19:30:00.000Z'],
  ['2026-11-21T19:00:00-00:00', '2026-11-21T19:00:00.000Z'],
  ['2026-01-01T00:30+01:00', '2025-12-31T23:30:00.000Z'],
  ['2024-02-29T12:00:00Z', '2024-02-29T12:00:00.000Z'],
  ['2000-02-29T12:00Z', '2000-02-29T12:00:00.000Z'],
  ['2024-03-01T00:59:59.999+01:00', '2024-02-29T23:59:59.999Z'],
  ['2026-12-31T23:59:59.999999Z', '2026-12-31T23:59:59.999Z'],
];

const refused: [sent: string, why: string][] = [
  ['2023-02-29T12:00Z', 'no leap day in 2023'],
  ['1900-02-29T12:00Z', 'no leap day in 1900'],
  ['2026-04-31T12:00Z', 'April has 30 days'],
  ['2026-13-01T12:00Z', 'month 13'],
  ['2026-00-10T12:00Z', 'month 0'],
  ['2026-11-00T12:00Z', 'day 0'],
  ['2026-11-21T24:00Z', '24:00'],
  ['2026-11-21T23:60Z', 'minute 60'],
  ['2026-11-21T23:59:60Z', 'second 60'],
  ['2026-11-21T19:00:00', 'no offset'],
  ['2026-11-21T19:00', 'no seconds and no offset'],
  ['2026-11-21T19:00+24:00', 'offset +24:00'],
  ['2026-11-21T19:00-23:60', 'offset minute 60'],
  ['2026-11-21T19:00+0100', 'offset without a colon'],
  ['2026-11-21T19:00+01', 'offset without minutes'],
  ['2026-11-21', 'a date alone'],
  ['2026-11-21 19:00Z', 'a space for T'],
  ['2026-11-21T19Z', 'hours alone'],
  ['2026-11-21T19:00:00.Z', 'a dot without digits'],
  ['0000-01-01T00:00Z', 'year 0'],
  ['+2026-11-21T19:00Z', 'a signed year'],
  ['1763744400000', 'epoch milliseconds'],
  ['', 'an empty string'],
];

describe('startsAt', () => {
  it.each(accepted)('When startsAt is %s, then it is accepted and rendered %s', async (sent, rendered) => {
    const res = await loc.api.post(`${P}/reservations`).send(reservation({ startsAt: sent }));

    expect(res.status).toBe(201);
    expect(res.body.reservation.startsAt).toBe(rendered);
  });

  it.each(refused)('When startsAt is %s (%s), then 422 validation_failed at /startsAt', async (sent) => {
    const res = await loc.api.post(`${P}/reservations`).send(reservation({ startsAt: sent }));

    expectEnvelope(res, 422, 'validation_failed');
    expect(res.body.error.details).toEqual([{ path: '/startsAt', message: expect.any(String) }]);
  });
});

describe('every other date-time field', () => {
  const fields: [name: string, pointer: string, put: (v: string) => Json, read: (r: Json) => unknown][] = [
    ['endsAt', '/endsAt', (v) => reservation({ endsAt: v }), (r) => r['endsAt']],
    ['updatedAt', '/updatedAt', (v) => reservation({ updatedAt: v }), (r) => r['updatedAt']],
    [
      'guest.memberSince',
      '/guest/memberSince',
      (v) => reservation({ guest: fullGuest({ memberSince: v }) }),
      (r) => (r['guest'] as Json)['memberSince'],
    ],
    [
      'recentVisits[0].occurredAt',
      '/guest/recentVisits/0/occurredAt',
      (v) => reservation({ guest: { recentVisits: [{ occurredAt: v, outcome: 'completed' }] } }),
      (r) => ((r['guest'] as Json)['recentVisits'] as Json[])[0]!['occurredAt'],
    ],
  ];

  it.each(fields)(
    'When %s is sent with an offset and 9 fraction digits, then it is rendered in UTC with milliseconds',
    async (_n, _p, put, read) => {
      const res = await loc.api.post(`${P}/reservations`).send(put('2024-02-29T23:30:00.123456789-01:00'));

      expect(res.status).toBe(201);
      expect(read(res.body.reservation)).toBe('2024-03-01T00:30:00.123Z');
    },
  );

  it.each(
    fields.flatMap(([name, pointer, put]) => [
      [name, '2023-02-29T12:00Z', pointer, put] as const,
      [name, '2026-11-21T24:00Z', pointer, put] as const,
      [name, '2026-11-21T19:00:00', pointer, put] as const,
    ]),
  )('When %s is %s, then 422 validation_failed at its pointer', async (_n, value, pointer, put) => {
    const res = await loc.api.post(`${P}/reservations`).send(put(value));

    expectEnvelope(res, 422, 'validation_failed');
    expect(res.body.error.details).toContainEqual({ path: pointer, message: expect.any(String) });
  });

  it('When every date-time of a response is read back, then each is UTC with exactly three fraction digits', async () => {
    const body = reservation({
      status: 'arrived',
      startsAt: '2026-11-21T19:00+05:30',
      endsAt: '2026-11-21T21:00:00.5-08:00',
      updatedAt: '2026-11-20T10:00:00.000001Z',
      guest: {
        memberSince: '2020-01-01T00:00Z',
        recentVisits: [{ occurredAt: '2026-01-01T12:00+01:00', outcome: 'completed' }],
      },
    });

    const res = await loc.api.post(`${P}/reservations`).send(body);

    const r = res.body.reservation;
    const times = [
      r.startsAt,
      r.endsAt,
      r.updatedAt,
      r.arrivedAt,
      r.receivedAt,
      r.guest.memberSince,
      r.guest.recentVisits[0].occurredAt,
    ];
    expect(times.every((t: string) => UTC_MILLIS.test(t))).toBe(true);
    expect(times.slice(0, 3)).toEqual([
      '2026-11-21T13:30:00.000Z',
      '2026-11-22T05:00:00.500Z',
      '2026-11-20T10:00:00.000Z',
    ]);
  });
});

describe('last-write-wins at microsecond precision', () => {
  async function stored(updatedAt: string): Promise<Json> {
    const body = reservation({ updatedAt });
    await loc.api.post(`${P}/reservations`).send(body).expect(201);
    return body;
  }

  const put = (body: Json, updatedAt: string, partyName: string) =>
    loc.api
      .put(`${P}/reservations/${body['externalId']}`)
      .send({ ...body, updatedAt, partyName })
      .expect(200);

  it.each([
    ['1 µs later', '2026-11-20T10:00:00.000002Z', 'applied'],
    ['1 µs later, written with nanoseconds', '2026-11-20T10:00:00.000002000Z', 'applied'],
    ['1 µs later, in another offset', '2026-11-20T11:00:00.000002+01:00', 'applied'],
    ['less than 1 µs later', '2026-11-20T10:00:00.0000019Z', 'stale'],
    ['the same instant in another offset', '2026-11-20T09:30:00.000001-00:30', 'stale'],
    ['the same instant with trailing zeros', '2026-11-20T10:00:00.000001000Z', 'stale'],
    ['1 µs earlier', '2026-11-20T10:00:00Z', 'stale'],
  ])('When a PUT is %s than the stored 10:00:00.000001Z, then it is %s', async (_c, updatedAt, outcome) => {
    const body = await stored('2026-11-20T10:00:00.000001Z');

    const res = await put(body, updatedAt, 'Second');

    expect(res.body.outcome).toBe(outcome);
    expect(res.body.reservation.partyName).toBe(outcome === 'applied' ? 'Second' : null);
    expect(res.body.reservation.updatedAt).toBe('2026-11-20T10:00:00.000Z');
  });

  it('When two writes 1 µs apart arrive newest first, then the older one is stale and the newest stays stored', async () => {
    const body = await stored('2026-11-20T10:00:00Z');

    const newest = await put(body, '2026-11-20T10:00:00.000002Z', 'Newest');
    const older = await put(body, '2026-11-20T10:00:00.000001Z', 'Older');

    expect([newest.body.outcome, older.body.outcome]).toEqual(['applied', 'stale']);
    expect(older.body.reservation.partyName).toBe('Newest');
    const listed = await loc.api
      .get(`${P}/reservations?from=2026-11-21T00:00Z&to=2026-11-22T00:00Z`)
      .expect(200);
    expect(listed.body.reservations[0].partyName).toBe('Newest');
  });

  it('When a write carries a far-future updatedAt, then later writes are stale until they pass it', async () => {
    const body = await stored('9999-12-31T23:59:59.999999Z');

    const res = await put(body, '2026-11-20T10:00:00Z', 'x');

    expect(res.body.outcome).toBe('stale');
    expect(res.body.reservation.updatedAt).toBe('9999-12-31T23:59:59.999Z');
  });
});

describe('list window bounds', () => {
  it('When from and to carry offsets and fractions, then the window is compared as instants, from inclusive and to exclusive', async () => {
    const at = [
      '2026-11-21T17:59:59.999999Z',
      '2026-11-21T18:00:00Z',
      '2026-11-21T19:59:59.999999Z',
      '2026-11-21T20:00:00Z',
    ];
    for (const startsAt of at)
      await loc.api.post(`${P}/reservations`).send(reservation({ startsAt })).expect(201);

    const res = await loc.api.get(
      `${P}/reservations?from=${encodeURIComponent('2026-11-21T19:00+01:00')}&to=${encodeURIComponent('2026-11-21T21:00:00.000000+01:00')}`,
    );

    expect(res.status).toBe(200);
    expect(res.body.reservations.map((r: Json) => r['startsAt'])).toEqual([
      '2026-11-21T18:00:00.000Z',
      '2026-11-21T19:59:59.999Z',
    ]);
  });

  it.each([
    ['from', 'from=2023-02-29T00:00Z&to=2023-03-02T00:00Z'],
    ['to', 'from=2026-11-21T00:00Z&to=2026-11-21T24:00Z'],
    ['from', 'from=2026-11-21T00:00&to=2026-11-22T00:00Z'],
  ])('When %s is not a valid date-time, then 422 validation_failed', async (param, query) => {
    const res = await loc.api.get(`${P}/reservations?${query}`);

    expectEnvelope(res, 422, 'validation_failed');
    expect(res.body.error.details).toContainEqual({ path: `/${param}`, message: expect.any(String) });
  });
});

describe('the edges of the calendar', () => {
  it.each([
    ['0001-01-01T00:00Z', '0001-01-01T00:00:00.000Z'],
    ['9999-12-31T23:59:59.999999Z', '9999-12-31T23:59:59.999Z'],
    ['1969-12-31T23:59:59.9999Z', '1969-12-31T23:59:59.999Z'],
  ])('When startsAt is %s, then it is stored and rendered %s', async (sent, rendered) => {
    const res = await loc.api.post(`${P}/reservations`).send(reservation({ startsAt: sent }));

    expect(res.status).toBe(201);
    expect(res.body.reservation.startsAt).toBe(rendered);
  });

  it.each([
    [
      'startsAt 0001-01-01T00:00+00:01',
      () => loc.api.post(`${P}/reservations`).send(reservation({ startsAt: '0001-01-01T00:00+00:01' })),
    ],
    [
      'startsAt 9999-12-31T23:59-00:01',
      () => loc.api.post(`${P}/reservations`).send(reservation({ startsAt: '9999-12-31T23:59-00:01' })),
    ],
    [
      'a list window ending after year 9999',
      () => loc.api.get(`${P}/reservations?from=9999-12-31T00:00Z&to=9999-12-31T23:59-00:01`),
    ],
  ])('When %s falls outside years 1-9999 in UTC, then 422 validation_failed', async (_case, call) => {
    expectEnvelope(await call(), 422, 'validation_failed');
  });
});
