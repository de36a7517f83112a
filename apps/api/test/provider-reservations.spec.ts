import { Harness, type TestLocation } from './support/harness';
import {
  P,
  RESERVATION_KEYS,
  UTC_MILLIS,
  fullReservation,
  nextUpdatedAt,
  requestFieldsOf,
  reservation,
} from './support/wire';

/** POST, PUT and GET /reservations: success statuses and the exact response form. */
let h: Harness;
beforeAll(async () => {
  h = await Harness.start();
});
afterAll(async () => {
  await h?.stop();
});

/** The service's own fields of a reservation that was never arrived or seated. */
const serviceFields = {
  id: expect.any(String),
  linkedOrderId: null,
  arrivedAt: null,
  receivedAt: expect.stringMatching(UTC_MILLIS),
};

describe('POST /reservations', () => {
  let loc: TestLocation;
  beforeEach(async () => {
    loc = await h.location();
  });

  it('When a reservation is created with only the required fields, then 201 applied with every default filled and nothing extra', async () => {
    const body = reservation();

    const res = await loc.api.post(`${P}/reservations`).send(body);

    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(['outcome', 'reservation']);
    expect(res.body.outcome).toBe('applied');
    expect(Object.keys(res.body.reservation).sort()).toEqual(RESERVATION_KEYS);
    expect(res.body.reservation).toEqual({
      ...requestFieldsOf(body),
      partyName: null,
      endsAt: null,
      tableIds: [],
      guest: null,
      internalNote: null,
      prepayment: null,
      posOrderId: null,
      ...serviceFields,
    });
  });

  it('When a reservation is created with every field set, then each is echoed as sent (posOrderId included)', async () => {
    const body = fullReservation();

    const res = await loc.api.post(`${P}/reservations`).send(body);

    expect(res.status).toBe(201);
    expect(res.body).toEqual({ outcome: 'applied', reservation: { ...body, ...serviceFields } });
  });

  it('When a guest, a recent visit and a prepayment carry only their required fields, then their defaults are filled', async () => {
    const body = reservation({
      guest: { recentVisits: [{ occurredAt: '2026-01-01T12:00:00.000Z', outcome: 'in_progress' }] },
      prepayment: { prepaidMinor: 0, currency: 'GBP' },
    });

    const res = await loc.api.post(`${P}/reservations`).send(body);

    expect(res.status).toBe(201);
    expect(res.body.reservation.guest).toEqual({
      name: null,
      phone: null,
      email: null,
      vip: false,
      firstVisit: false,
      visitCount: null,
      occasion: null,
      allergies: null,
      tags: [],
      memberSince: null,
      averageSpendMinor: null,
      noShowCount: null,
      recentVisits: [
        {
          occurredAt: '2026-01-01T12:00:00.000Z',
          tableLabel: null,
          covers: null,
          spendMinor: null,
          outcome: 'in_progress',
        },
      ],
    });
    expect(res.body.reservation.prepayment).toEqual({
      prepaidMinor: 0,
      currency: 'GBP',
      items: [],
      imprint: null,
    });
  });

  it('When nullable fields are sent as null, then they are stored and returned as null', async () => {
    const body = reservation({
      partyName: null,
      endsAt: null,
      guest: null,
      internalNote: null,
      prepayment: null,
      posOrderId: null,
    });

    const res = await loc.api.post(`${P}/reservations`).send(body);

    expect(res.status).toBe(201);
    expect(res.body.reservation).toEqual({ ...requestFieldsOf(body), ...serviceFields });
  });

  it('When a reservation is created seated on a free table, then an order opens on the till and is linked', async () => {
    const body = reservation({ status: 'seated', tableIds: [loc.tables[0]], covers: 3 });

    const res = await loc.api.post(`${P}/reservations`).send(body);

    expect(res.status).toBe(201);
    const r = res.body.reservation;
    expect(r.linkedOrderId).toEqual(expect.any(String));
    expect(r.arrivedAt).toBe(r.receivedAt);
    expect(await h.openOrders(loc)).toEqual([
      expect.objectContaining({
        id: r.linkedOrderId,
        tableIds: [loc.tables[0]],
        covers: 3,
        reservationExternalId: body['externalId'],
      }),
    ]);
  });
});

describe('PUT /reservations/{externalId}', () => {
  let loc: TestLocation;
  beforeEach(async () => {
    loc = await h.location();
  });

  it('When a newer body is PUT, then 200 applied and the reservation is replaced whole (no field is merged)', async () => {
    const first = fullReservation();
    const created = await loc.api.post(`${P}/reservations`).send(first).expect(201);
    const second = reservation({ externalId: first['externalId'], status: 'booked', covers: 5 });

    const res = await loc.api.put(`${P}/reservations/${first['externalId']}`).send(second);

    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      outcome: 'applied',
      reservation: { ...requestFieldsOf(second), ...serviceFields, id: created.body.reservation.id },
    });
    expect(Date.parse(res.body.reservation.receivedAt)).toBeGreaterThanOrEqual(
      Date.parse(created.body.reservation.receivedAt),
    );
  });

  it.each([
    ['older than', -1],
    ['equal to', 0],
  ])(
    'When the PUT updatedAt is %s the stored one, then 200 stale and the stored reservation is returned unchanged',
    async (_case, deltaMs) => {
      const stored = fullReservation();
      const created = await loc.api.post(`${P}/reservations`).send(stored).expect(201);
      const updatedAt = new Date(Date.parse(stored['updatedAt'] as string) + deltaMs).toISOString();

      const res = await loc.api
        .put(`${P}/reservations/${stored['externalId']}`)
        .send(reservation({ externalId: stored['externalId'], status: 'cancelled', updatedAt }));

      expect(res.status).toBe(200);
      expect(res.body).toEqual({ outcome: 'stale', reservation: created.body.reservation });
      const listed = await loc.api
        .get(`${P}/reservations?from=2026-11-21T00:00Z&to=2026-11-22T00:00Z`)
        .expect(200);
      expect(listed.body.reservations).toEqual([created.body.reservation]);
    },
  );

  it('When a reservation arrives and later goes back to confirmed, then arrivedAt is set once and never cleared', async () => {
    const body = reservation();
    await loc.api.post(`${P}/reservations`).send(body).expect(201);
    const put = (status: string) =>
      loc.api
        .put(`${P}/reservations/${body['externalId']}`)
        .send({ ...body, status, updatedAt: nextUpdatedAt() })
        .expect(200);

    const arrived = await put('arrived');
    const back = await put('confirmed');

    expect(arrived.body.reservation.arrivedAt).toMatch(UTC_MILLIS);
    expect(arrived.body.reservation.arrivedAt).toBe(arrived.body.reservation.receivedAt);
    expect(back.body.reservation.arrivedAt).toBe(arrived.body.reservation.arrivedAt);
  });

  it('When a seated reservation is cancelled, then its order stays open on the till', async () => {
    const body = reservation({ status: 'seated', tableIds: [loc.tables[0]] });
    const seated = await loc.api.post(`${P}/reservations`).send(body).expect(201);

    const res = await loc.api
      .put(`${P}/reservations/${body['externalId']}`)
      .send({ ...body, status: 'cancelled', tableIds: [], updatedAt: nextUpdatedAt() });

    expect(res.status).toBe(200);
    expect(res.body.outcome).toBe('applied');
    expect(res.body.reservation.linkedOrderId).toBe(seated.body.reservation.linkedOrderId);
    expect((await h.openOrders(loc)).map((o) => o['id'])).toEqual([seated.body.reservation.linkedOrderId]);
  });

  it('When a seated reservation moves to another table with new covers, then its order follows', async () => {
    const body = reservation({ status: 'seated', tableIds: [loc.tables[0]], covers: 2 });
    const seated = await loc.api.post(`${P}/reservations`).send(body).expect(201);

    await loc.api
      .put(`${P}/reservations/${body['externalId']}`)
      .send({ ...body, tableIds: [loc.tables[1], loc.tables[2]], covers: 6, updatedAt: nextUpdatedAt() })
      .expect(200);

    expect(await h.openOrders(loc)).toEqual([
      expect.objectContaining({
        id: seated.body.reservation.linkedOrderId,
        tableIds: expect.arrayContaining([loc.tables[1], loc.tables[2]]),
        covers: 6,
      }),
    ]);
  });
});

describe('GET /reservations', () => {
  it('When a window holds reservations, then they come in the response form by startsAt with generatedAt and no next page', async () => {
    const loc = await h.location();
    const late = fullReservation({ startsAt: '2026-11-21T21:00:00.000Z' });
    const early = reservation({ startsAt: '2026-11-21T18:00:00.000Z', status: 'cancelled' });
    const outside = reservation({ startsAt: '2026-11-22T00:00:00.000Z' });
    const written = [];
    for (const body of [late, early, outside]) {
      written.push((await loc.api.post(`${P}/reservations`).send(body).expect(201)).body.reservation);
    }

    const res = await loc.api.get(`${P}/reservations?from=2026-11-21T00:00:00Z&to=2026-11-22T00:00:00Z`);

    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['generatedAt', 'nextCursor', 'reservations']);
    expect(res.body.reservations).toEqual([written[1], written[0]]);
    expect(res.body.generatedAt).toMatch(UTC_MILLIS);
    expect(res.body.nextCursor).toBeNull();
  });

  it('When the window holds more than the limit, then the cursor pages through every reservation once, in order', async () => {
    const loc = await h.location();
    const starts = ['19:00', '18:00', '19:00', '20:00', '18:30'].map((t) => `2026-11-21T${t}:00.000Z`);
    for (const startsAt of starts)
      await loc.api.post(`${P}/reservations`).send(reservation({ startsAt })).expect(201);

    const seen: { startsAt: string; id: string }[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const after: string = cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`;
      const query = `from=2026-11-21T00:00Z&to=2026-11-22T00:00Z&limit=2${after}`;
      const res: { body: { reservations: typeof seen; nextCursor: string | null } } = await loc.api
        .get(`${P}/reservations?${query}`)
        .expect(200);
      seen.push(...res.body.reservations);
      cursor = res.body.nextCursor;
      pages += 1;
    } while (cursor !== null);

    expect(pages).toBe(3);
    expect(seen.map((r) => r.startsAt)).toEqual([...starts].sort());
    const sorted = [...seen].sort((a, b) => a.startsAt.localeCompare(b.startsAt) || a.id.localeCompare(b.id));
    expect(seen).toEqual(sorted);
  });
});
