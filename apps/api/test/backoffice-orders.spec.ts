import { expectEnvelope } from './support/envelope';
import { Harness, type TestLocation } from './support/harness';
import { UTC_MILLIS } from './support/wire';

/**
 * The till side of the operator surface (docs/reference/backoffice-api.md#till-orders): walk-ins,
 * items, moves, close, void, lists.
 */
let h: Harness;
beforeAll(async () => {
  h = await Harness.start();
});
afterAll(async () => {
  await h?.stop();
});

const ORDER_KEYS = [
  'check',
  'closedAt',
  'covers',
  'currency',
  'id',
  'openedAt',
  'reservationExternalId',
  'serviceStatus',
  'spendMinor',
  'status',
  'tableIds',
];

describe('Till orders', () => {
  let loc: TestLocation;
  beforeEach(async () => {
    loc = await h.location({ tables: 4, currency: 'GBP' });
  });

  it('When a walk-in order opens, then 201 with every order field, no reservation and the location currency', async () => {
    const res = await h.operator
      .post(loc.ops('/orders'))
      .send({ tableIds: [loc.tables[0], loc.tables[1]], covers: 5 });

    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(ORDER_KEYS);
    expect(res.body).toEqual({
      id: expect.any(String),
      tableIds: [loc.tables[0], loc.tables[1]],
      covers: 5,
      spendMinor: 0,
      currency: 'GBP',
      status: 'open',
      reservationExternalId: null,
      openedAt: expect.stringMatching(UTC_MILLIS),
      closedAt: null,
      check: {
        items: [],
        discounts: [],
        payments: [],
        subtotalMinor: 0,
        discountMinor: 0,
        taxMinor: 0,
        totalMinor: 0,
        tipMinor: 0,
        paidMinor: 0,
        balanceMinor: 0,
      },
      serviceStatus: null,
    });
  });

  it('When items are added, then 200 with the spend grown by amount times quantity (default 1)', async () => {
    const order = await h.walkIn(loc, [loc.tables[0]!]);

    const one = await h.operator
      .post(loc.ops(`/orders/${order['id']}/items`))
      .send({ label: 'Soup', amountMinor: 650 });
    const three = await h.operator
      .post(loc.ops(`/orders/${order['id']}/items`))
      .send({ label: 'Wine', amountMinor: 1200, quantity: 3 });

    expect(one.status).toBe(200);
    expect(one.body).toEqual({
      ...order,
      spendMinor: 650,
      check: {
        ...(order['check'] as object),
        items: [
          {
            id: expect.any(String),
            label: 'Soup',
            quantity: 1,
            amountMinor: 650,
            taxRateBps: 0,
            course: 'other',
            voided: false,
          },
        ],
        subtotalMinor: 650,
        totalMinor: 650,
        balanceMinor: 650,
      },
    });
    expect(three.body).toMatchObject({ spendMinor: 650 + 3600, check: { totalMinor: 650 + 3600 } });
    expect(three.body.check.items[1]).toMatchObject({ label: 'Wine', quantity: 3, amountMinor: 1200 });
  });

  it.each([
    [{ label: '', amountMinor: 1 }, 422],
    [{ label: 'x'.repeat(120), amountMinor: 0 }, 200],
    [{ label: 'x'.repeat(121), amountMinor: 1 }, 422],
    [{ label: 'x', amountMinor: -1 }, 422],
    [{ label: 'x', amountMinor: 2147483647 }, 200],
    [{ label: 'x', amountMinor: 2147483648 }, 422],
    [{ label: 'x', amountMinor: 1, quantity: 0 }, 422],
    [{ label: 'x', amountMinor: 1, quantity: 1000 }, 200],
    [{ label: 'x', amountMinor: 1, quantity: 1001 }, 422],
    [{ label: 'x', amountMinor: 1.5 }, 422],
    [{ label: 'x', amountMinor: 3000000, quantity: 1000 }, 422],
  ])('When an item %j is added, then %i', async (item, status) => {
    const order = await h.walkIn(loc, [loc.tables[0]!]);

    const res = await h.operator.post(loc.ops(`/orders/${order['id']}/items`)).send(item);

    if (status === 200) expect(res.status).toBe(200);
    else expectEnvelope(res, 422, 'validation_failed');
  });

  it('When an order moves to free tables, then 200 with the new tables; onto a taken one, 409 naming the holder', async () => {
    const mine = await h.walkIn(loc, [loc.tables[0]!]);
    const theirs = await h.walkIn(loc, [loc.tables[3]!]);

    const moved = await h.operator
      .post(loc.ops(`/orders/${mine['id']}/move`))
      .send({ tableIds: [loc.tables[1], loc.tables[2]] });
    const refused = await h.operator
      .post(loc.ops(`/orders/${mine['id']}/move`))
      .send({ tableIds: [loc.tables[3]] });

    expect(moved.status).toBe(200);
    expect(moved.body).toEqual({ ...mine, tableIds: [loc.tables[1], loc.tables[2]] });
    expectEnvelope(refused, 409, 'table_occupied');
    expect(refused.body.error.occupiedBy).toEqual({ orderId: theirs['id'], reservationExternalId: null });
  });

  it.each(['close', 'void'])(
    'When an order is %sd, then 200 with its final status and closedAt, the table is free, and a second %s is 422',
    async (how) => {
      const order = await h.walkIn(loc, [loc.tables[0]!]);

      const res = await h.operator.post(loc.ops(`/orders/${order['id']}/${how}`));

      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        ...order,
        status: how === 'close' ? 'closed' : 'voided',
        closedAt: expect.stringMatching(UTC_MILLIS),
      });
      expectEnvelope(
        await h.operator.post(loc.ops(`/orders/${order['id']}/${how}`)),
        422,
        'validation_failed',
      );
      await h.walkIn(loc, [loc.tables[0]!]);
    },
  );

  it('When a closed order gets an item, then 409 order_closed; a move, 422 validation_failed', async () => {
    const order = await h.walkIn(loc, [loc.tables[0]!]);
    await h.operator.post(loc.ops(`/orders/${order['id']}/close`)).expect(200);

    const item = await h.operator
      .post(loc.ops(`/orders/${order['id']}/items`))
      .send({ label: 'x', amountMinor: 1 });
    const move = await h.operator
      .post(loc.ops(`/orders/${order['id']}/move`))
      .send({ tableIds: [loc.tables[1]] });

    expectEnvelope(item, 409, 'order_closed');
    expectEnvelope(move, 422, 'validation_failed');
  });

  it('When orders are listed, then newest first, filtered by status when asked', async () => {
    const first = await h.walkIn(loc, [loc.tables[0]!]);
    const second = await h.walkIn(loc, [loc.tables[1]!]);
    const closed = (await h.operator.post(loc.ops(`/orders/${first['id']}/close`)).expect(200)).body;

    const all = await h.operator.get(loc.ops('/orders'));
    const open = await h.operator.get(loc.ops('/orders?status=open'));
    const done = await h.operator.get(loc.ops('/orders?status=closed'));
    const voided = await h.operator.get(loc.ops('/orders?status=voided'));

    expect(all.status).toBe(200);
    expect(all.body).toEqual({ orders: [second, closed] });
    expect(open.body).toEqual({ orders: [second] });
    expect(done.body).toEqual({ orders: [closed] });
    expect(voided.body).toEqual({ orders: [] });
    expectEnvelope(await h.operator.get(loc.ops('/orders?status=paid')), 422, 'validation_failed');
  });

  it.each([
    ['no table', { tableIds: [], covers: 2 }, 422, 'validation_failed'],
    ['a repeated table', 'dup', 422, 'validation_failed'],
    ['covers 0', 'covers0', 422, 'validation_failed'],
    [
      'an unknown table',
      { tableIds: ['7a1c1d8e-0000-4000-8000-000000000000'], covers: 2 },
      422,
      'unknown_table_id',
    ],
    ['a taken table', 'taken', 409, 'table_occupied'],
  ])('When a walk-in names %s, then %s %s', async (_case, body, status, code) => {
    const t = loc.tables[0]!;
    if (body === 'taken') await h.walkIn(loc, [t]);
    const sent =
      body === 'dup'
        ? { tableIds: [t, t], covers: 2 }
        : body === 'covers0'
          ? { tableIds: [t], covers: 0 }
          : body === 'taken'
            ? { tableIds: [t], covers: 2 }
            : body;

    expectEnvelope(await h.operator.post(loc.ops('/orders')).send(sent), status, code);
  });

  it('When a walk-in opens before the first publish, then 409 floorplan_not_published', async () => {
    const draft = await h.location({ plan: 'draft' });

    const res = await h.operator.post(draft.ops('/orders')).send({ tableIds: [draft.tables[0]], covers: 2 });

    expectEnvelope(res, 409, 'floorplan_not_published');
  });
});
