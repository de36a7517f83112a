import { COURSE_VALUES, SERVICE_STATUS_VALUES, TENDER_VALUES } from '@pis/contract';
import { expectEnvelope } from './support/envelope';
import { Harness, type TestLocation } from './support/harness';
import { P, UTC_MILLIS, fullPrepayment, reservation, type Json } from './support/wire';

/**
 * The till's check on the operator surface (docs/reference/backoffice-api.md#the-check): items
 * with tax rates and courses, voids, discounts, payments with tips, the service status, and
 * the deposit a seating records. Every answer is checked against the OpenAPI document by the
 * harness's clients.
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
  loc = await h.location({ tables: 3 });
});

const post = (order: Json, path: string, body?: Json) =>
  h.operator.post(loc.ops(`/orders/${order['id']}${path}`)).send(body);

describe('The check on every order answer', () => {
  it('When the till adds items, voids one, discounts and takes a payment with a tip, then each answer carries the whole check and its totals', async () => {
    const order = await h.walkIn(loc, [loc.tables[0]!], 2);

    const soup = await post(order, '/items', {
      label: 'Soup',
      amountMinor: 650,
      quantity: 2,
      taxRateBps: 1000,
      course: 'starter',
    });
    const steak = await post(order, '/items', {
      label: 'Steak',
      amountMinor: 2400,
      taxRateBps: 2000,
      course: 'main',
    });
    const wine = await post(order, '/items', {
      label: 'Wine',
      amountMinor: 1100,
      taxRateBps: 1000,
      course: 'drink',
    });
    const soupId = soup.body.check.items[0].id;
    const voided = await post(order, `/items/${soupId}/void`);
    const discounted = await post(order, '/discounts', { label: 'Staff', amountMinor: 700 });
    const paid = await post(order, '/payments', { amountMinor: 2000, tipMinor: 250, tender: 'card' });

    for (const res of [soup, steak, wine, voided, discounted, paid]) expect(res.status).toBe(200);
    expect(soup.body.check).toMatchObject({ subtotalMinor: 1300, taxMinor: 118, totalMinor: 1300 });
    expect(voided.body.check.items.map((i: Json) => [i['label'], i['voided']])).toEqual([
      ['Soup', true],
      ['Steak', false],
      ['Wine', false],
    ]);
    expect(paid.body).toMatchObject({
      spendMinor: 2800,
      check: {
        items: [
          {
            id: soupId,
            label: 'Soup',
            quantity: 2,
            amountMinor: 650,
            taxRateBps: 1000,
            course: 'starter',
            voided: true,
          },
          { label: 'Steak', quantity: 1, amountMinor: 2400, taxRateBps: 2000, course: 'main', voided: false },
          { label: 'Wine', quantity: 1, amountMinor: 1100, taxRateBps: 1000, course: 'drink', voided: false },
        ],
        discounts: [{ id: expect.any(String), label: 'Staff', amountMinor: 700 }],
        payments: [
          {
            id: expect.any(String),
            amountMinor: 2000,
            tipMinor: 250,
            tender: 'card',
            paidAt: expect.stringMatching(UTC_MILLIS),
          },
        ],
        // T = 400 + 100 = 500; 500 × 2800 / 3500 = 400.
        subtotalMinor: 3500,
        discountMinor: 700,
        taxMinor: 400,
        totalMinor: 2800,
        tipMinor: 250,
        paidMinor: 2000,
        balanceMinor: 800,
      },
    });

    const listed = await h.operator.get(loc.ops('/orders?status=open')).expect(200);
    const moved = await post(order, '/move', { tableIds: [loc.tables[1]] }).expect(200);
    const closed = await post(order, '/close').expect(200);
    expect(listed.body.orders).toEqual([paid.body]);
    expect(moved.body.check).toEqual(paid.body.check);
    expect(closed.body).toMatchObject({ status: 'closed', check: paid.body.check });
  });

  it('When the service status is set, then the order carries it; it starts null', async () => {
    const order = await h.walkIn(loc, [loc.tables[0]!]);

    const set = await post(order, '/service-status', { status: 'bill_requested' });

    expect(order['serviceStatus']).toBeNull();
    expect(set.status).toBe(200);
    expect(set.body).toEqual({ ...order, serviceStatus: 'bill_requested' });
  });

  it('When the item body of the first release is sent, then it still works with rate 0 and course other', async () => {
    const order = await h.walkIn(loc, [loc.tables[0]!]);

    const res = await post(order, '/items', { label: 'Espresso', amountMinor: 250 });

    expect(res.status).toBe(200);
    expect(res.body.check.items).toEqual([
      {
        id: expect.any(String),
        label: 'Espresso',
        quantity: 1,
        amountMinor: 250,
        taxRateBps: 0,
        course: 'other',
        voided: false,
      },
    ]);
  });
});

describe('Validation of till writes', () => {
  it.each<[string, string, Json | undefined, number]>([
    ['item: rate 10000', '/items', { label: 'x', amountMinor: 1, taxRateBps: 10000 }, 200],
    ['item: rate 10001', '/items', { label: 'x', amountMinor: 1, taxRateBps: 10001 }, 422],
    ['item: rate -1', '/items', { label: 'x', amountMinor: 1, taxRateBps: -1 }, 422],
    ['item: fractional rate', '/items', { label: 'x', amountMinor: 1, taxRateBps: 1.5 }, 422],
    ['item: unknown course', '/items', { label: 'x', amountMinor: 1, course: 'soup' }, 422],
    ['item: every course', '/items', { label: 'x', amountMinor: 1, course: 'dessert' }, 200],
    ['item: unknown field', '/items', { label: 'x', amountMinor: 1, voided: true }, 422],
    ['discount: ok', '/discounts', { label: 'x', amountMinor: 2147483647 }, 200],
    ['discount: no label', '/discounts', { amountMinor: 1 }, 422],
    ['discount: empty label', '/discounts', { label: '', amountMinor: 1 }, 422],
    ['discount: negative', '/discounts', { label: 'x', amountMinor: -1 }, 422],
    ['discount: over int32', '/discounts', { label: 'x', amountMinor: 2147483648 }, 422],
    ['payment: ok without tip', '/payments', { amountMinor: 0, tender: 'voucher' }, 200],
    ['payment: deposit tender', '/payments', { amountMinor: 10, tender: 'deposit' }, 200],
    ['payment: no tender', '/payments', { amountMinor: 1 }, 422],
    ['payment: unknown tender', '/payments', { amountMinor: 1, tender: 'bitcoin' }, 422],
    ['payment: negative tip', '/payments', { amountMinor: 1, tipMinor: -1, tender: 'cash' }, 422],
    ['payment: tip over int32', '/payments', { amountMinor: 1, tipMinor: 2147483648, tender: 'cash' }, 422],
    ['payment: amount as text', '/payments', { amountMinor: '1', tender: 'cash' }, 422],
    ['status: every value', '/service-status', { status: 'desserts' }, 200],
    ['status: unknown', '/service-status', { status: 'eating' }, 422],
    ['status: missing', '/service-status', {}, 422],
    ['status: null', '/service-status', { status: null }, 422],
  ])('When %s (POST %s %j), then %i', async (_c, path, body, status) => {
    const order = await h.walkIn(loc, [loc.tables[0]!]);

    const res = await post(order, path, body);

    if (status === 200) expect(res.status).toBe(200);
    else expectEnvelope(res, status, 'validation_failed');
  });

  it.each<[string, string, Json, Json]>([
    [
      'payments',
      '/payments',
      { amountMinor: 2147483647, tender: 'card' },
      { amountMinor: 1, tender: 'card' },
    ],
    [
      'tips',
      '/payments',
      { amountMinor: 0, tipMinor: 2147483647, tender: 'card' },
      { amountMinor: 0, tipMinor: 1, tender: 'card' },
    ],
    ['discounts', '/discounts', { label: 'x', amountMinor: 2147483647 }, { label: 'y', amountMinor: 1 }],
  ])(
    'When the %s of a check would pass 2147483647, then 422 and the check stays',
    async (_c, path, first, next) => {
      const order = await h.walkIn(loc, [loc.tables[0]!]);
      const accepted = await post(order, path, first).expect(200);

      expectEnvelope(await post(order, path, next), 422, 'validation_failed');
      expect((await h.openOrders(loc))[0]!['check']).toEqual(accepted.body.check);
    },
  );

  it('When a body is not JSON or too large, then the envelope answers before the order is looked up', async () => {
    const res = await h.operator
      .post(loc.ops('/orders/7a1c1d8e-0000-4000-8000-000000000000/payments'))
      .set('Content-Type', 'application/json')
      .send('{"amountMinor":');

    expectEnvelope(res, 400, 'validation_failed');
  });
});

describe("Every value of the till's enumerations", () => {
  /** The documented values (docs/reference/backoffice-api.md), written out so that a value dropped by the code fails here. */
  const TENDERS = ['card', 'cash', 'voucher', 'deposit', 'other'];
  const SERVICE_STATUSES = ['seated', 'starters', 'mains', 'desserts', 'bill_requested', 'paid'];
  const COURSES = ['starter', 'main', 'dessert', 'drink', 'other'];

  /** Per field: the write that carries it, and what an accepted write's answer shows of the order it was made on. */
  const fields = {
    tender: {
      path: '/payments',
      body: (tender: string): Json => ({ amountMinor: 100, tipMinor: 5, tender }),
      shown: (order: Json, tender: string): Json => ({
        check: {
          payments: [
            {
              id: expect.any(String),
              amountMinor: 100,
              tipMinor: 5,
              tender,
              paidAt: expect.stringMatching(UTC_MILLIS),
            },
          ],
          paidMinor: 100,
          tipMinor: 5,
        },
      }),
    },
    status: {
      path: '/service-status',
      body: (status: string): Json => ({ status }),
      shown: (order: Json, status: string): Json => ({ ...order, serviceStatus: status }),
    },
    course: {
      path: '/items',
      body: (course: string): Json => ({ label: 'Dish', amountMinor: 900, course }),
      shown: (order: Json, course: string): Json => ({
        check: {
          items: [
            {
              id: expect.any(String),
              label: 'Dish',
              quantity: 1,
              amountMinor: 900,
              taxRateBps: 0,
              course,
              voided: false,
            },
          ],
          totalMinor: 900,
        },
      }),
    },
  };
  type Field = keyof typeof fields;

  const every: [Field, string][] = [
    ...TENDERS.map((v): [Field, string] => ['tender', v]),
    ...SERVICE_STATUSES.map((v): [Field, string] => ['status', v]),
    ...COURSES.map((v): [Field, string] => ['course', v]),
  ];
  /** Close to a value, or a value of another of the three enumerations. */
  const outside: [Field, string][] = [
    ['tender', 'cheque'],
    ['tender', 'Card'],
    ['status', 'dessert'],
    ['status', 'bill-requested'],
    ['course', 'soup'],
    ['course', 'mains'],
  ];

  it('When the contract is read, then its enumerations hold exactly the documented values', () => {
    expect([[...TENDER_VALUES], [...SERVICE_STATUS_VALUES], [...COURSE_VALUES]]).toEqual([
      TENDERS,
      SERVICE_STATUSES,
      COURSES,
    ]);
  });

  it.each(every)(
    'When %s "%s" is written on an open order, then 200 and the answer and the stored order show it',
    async (field, value) => {
      const order = await h.walkIn(loc, [loc.tables[0]!]);

      const res = await post(order, fields[field].path, fields[field].body(value));

      expect(res.status).toBe(200);
      expect(res.body).toMatchObject(fields[field].shown(order, value));
      expect((await h.openOrders(loc))[0]).toEqual(res.body);
    },
  );

  it.each(outside)(
    'When %s "%s", which is none of its values, is written on an open order, then 422 validation_failed and the order is untouched',
    async (field, value) => {
      const order = await h.walkIn(loc, [loc.tables[0]!]);

      const res = await post(order, fields[field].path, fields[field].body(value));

      const body = expectEnvelope(res, 422, 'validation_failed');
      expect(body.error.details).toContainEqual({ path: `/${field}`, message: expect.any(String) });
      expect((await h.openOrders(loc))[0]).toEqual(order);
    },
  );
});

describe('Refusals', () => {
  const writes: [string, (order: Json) => ReturnType<typeof post>][] = [
    ['an item', (o) => post(o, '/items', { label: 'x', amountMinor: 1 })],
    ['a void', (o) => post(o, `/items/${(o['check'] as { items: Json[] }).items[0]!['id']}/void`)],
    ['a discount', (o) => post(o, '/discounts', { label: 'x', amountMinor: 1 })],
    ['a payment', (o) => post(o, '/payments', { amountMinor: 1, tender: 'cash' })],
    ['a service status', (o) => post(o, '/service-status', { status: 'paid' })],
  ];

  it.each(writes)(
    'When %s is written on a closed or a voided order, then 409 order_closed',
    async (_c, write) => {
      for (const how of ['close', 'void']) {
        const order = await h.walkIn(loc, [loc.tables[0]!]);
        await post(order, '/items', { label: 'Soup', amountMinor: 650 }).expect(200);
        const done = (await post(order, `/${how}`).expect(200)).body;

        expectEnvelope(await write(done), 409, 'order_closed');
        expect((await h.operator.get(loc.ops(`/orders?status=${done.status}`))).body.orders[0]).toEqual(done);
      }
    },
  );

  it('When the order, the item or the location is unknown, or an id is not a UUID, then 404 not_found', async () => {
    const order = await h.walkIn(loc, [loc.tables[0]!]);
    const ghost = '7a1c1d8e-0000-4000-8000-000000000000';

    expectEnvelope(await post(order, `/items/${ghost}/void`), 404, 'not_found');
    expectEnvelope(await post(order, '/items/not-a-uuid/void'), 404, 'not_found');
    expectEnvelope(
      await post({ id: ghost }, '/payments', { amountMinor: 1, tender: 'cash' }),
      404,
      'not_found',
    );
    expectEnvelope(
      await h.operator
        .post(`/api/backoffice/v1/locations/${ghost}/orders/${order['id']}/discounts`)
        .send({ label: 'x', amountMinor: 1 }),
      404,
      'not_found',
    );
  });

  it('When another location names the order, then 404 and the order is untouched', async () => {
    const order = await h.walkIn(loc, [loc.tables[0]!]);
    const other = await h.location({ tables: 1 });

    const res = await h.operator
      .post(other.ops(`/orders/${order['id']}/payments`))
      .send({ amountMinor: 5, tender: 'cash' });

    expectEnvelope(res, 404, 'not_found');
    expect((await h.openOrders(loc))[0]).toEqual(order);
  });

  it('When the request is not authenticated, then 401', async () => {
    const order = await h.walkIn(loc, [loc.tables[0]!]);

    const res = await h
      .client(null)
      .post(loc.ops(`/orders/${order['id']}/service-status`))
      .send({ status: 'paid' });

    expectEnvelope(res, 401, 'unauthorized');
  });
});

describe('Deposits on seating', () => {
  const deposits = (order: Json) =>
    (order['check'] as { payments: Json[] }).payments.filter((p) => p['tender'] === 'deposit');

  it("When a reservation prepaid in the location's currency is seated, moved, retried and re-seated, then its order holds one deposit", async () => {
    const body = reservation({ prepayment: fullPrepayment({ prepaidMinor: 3000, currency: 'EUR' }) });
    await loc.api.post(`${P}/reservations`).send(body).expect(201);
    const seat = {
      ...body,
      status: 'seated',
      tableIds: [loc.tables[0]],
      updatedAt: '2026-11-21T19:00:00.000Z',
    };

    const seated = await loc.api.put(`${P}/reservations/${body['externalId']}`).send(seat).expect(200);
    await loc.api.put(`${P}/reservations/${body['externalId']}`).send(seat).expect(200);
    const moved = { ...seat, tableIds: [loc.tables[1]], covers: 5, updatedAt: '2026-11-21T19:10:00.000Z' };
    await loc.api.put(`${P}/reservations/${body['externalId']}`).send(moved).expect(200);
    await loc.api
      .put(`${P}/reservations/${body['externalId']}`)
      .send({ ...moved, status: 'cancelled', updatedAt: '2026-11-21T19:20:00.000Z' })
      .expect(200);
    await loc.api
      .put(`${P}/reservations/${body['externalId']}`)
      .send({ ...moved, updatedAt: '2026-11-21T19:30:00.000Z' })
      .expect(200);

    const [order] = await h.openOrders(loc);
    expect(order!['id']).toBe(seated.body.reservation.linkedOrderId);
    expect(deposits(order!)).toEqual([
      {
        id: expect.any(String),
        amountMinor: 3000,
        tipMinor: 0,
        tender: 'deposit',
        paidAt: expect.stringMatching(UTC_MILLIS),
      },
    ]);
    expect(order!['check']).toMatchObject({ totalMinor: 0, paidMinor: 3000, balanceMinor: -3000 });
  });

  it('When the prepayment is in another currency, then seating records no deposit', async () => {
    const body = reservation({
      status: 'seated',
      tableIds: [loc.tables[0]],
      prepayment: fullPrepayment({ prepaidMinor: 3000, currency: 'USD' }),
    });

    await loc.api.post(`${P}/reservations`).send(body).expect(201);

    expect((await h.openOrders(loc))[0]!['check']).toMatchObject({ payments: [], paidMinor: 0 });
  });
});
