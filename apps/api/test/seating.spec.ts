import { expectEnvelope } from './support/envelope';
import { Harness, type TestLocation } from './support/harness';
import { P, nextUpdatedAt, reservation, type Json } from './support/wire';

/**
 * docs/reference/provider-api.md#tables-orders-and-occupancy through the API: what a reservation
 * write does to the till order.
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
  loc = await h.location({ tables: 4 });
});

async function seat(overrides: Json = {}): Promise<{ body: Json; orderId: string }> {
  const body = reservation({ status: 'seated', tableIds: [loc.tables[0]], covers: 2, ...overrides });
  const res = await loc.api.post(`${P}/reservations`).send(body).expect(201);
  return { body, orderId: res.body.reservation.linkedOrderId };
}

const put = (body: Json, changes: Json) =>
  loc.api
    .put(`${P}/reservations/${body['externalId']}`)
    .send({ ...body, ...changes, updatedAt: nextUpdatedAt() });

it.each(['cancelled', 'finished', 'no_show', 'confirmed', 'arrived'])(
  'When a seated reservation is written with status %s, new tables and covers, then the order stays where it is',
  async (status) => {
    const { body, orderId } = await seat();

    const res = await put(body, { status, tableIds: [loc.tables[2]], covers: 7 });

    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ outcome: 'applied', reservation: { status, linkedOrderId: orderId } });
    expect(await h.openOrders(loc)).toEqual([
      expect.objectContaining({ id: orderId, tableIds: [loc.tables[0]], covers: 2, status: 'open' }),
    ]);
  },
);

it('When a reservation with a closed order is seated again on other tables, then the closed order is not reopened and none opens', async () => {
  const { body, orderId } = await seat();
  await h.operator.post(loc.ops(`/orders/${orderId}/close`)).expect(200);

  const res = await put(body, { tableIds: [loc.tables[1]], covers: 4 });

  expect(res.status).toBe(200);
  expect(res.body.reservation.linkedOrderId).toBe(orderId);
  expect(await h.openOrders(loc)).toEqual([]);
  const closed = await h.operator.get(loc.ops('/orders?status=closed')).expect(200);
  expect(closed.body.orders).toEqual([
    expect.objectContaining({ id: orderId, tableIds: [loc.tables[0]], covers: 2 }),
  ]);
});

it('When the till moved the order, then an unrelated edit of the seated reservation does not move it back', async () => {
  const { body, orderId } = await seat();
  await h.operator
    .post(loc.ops(`/orders/${orderId}/move`))
    .send({ tableIds: [loc.tables[3]] })
    .expect(200);

  await put(body, { partyName: 'Renamed' }).expect(200);

  expect(await h.openOrders(loc)).toEqual([
    expect.objectContaining({ id: orderId, tableIds: [loc.tables[3]] }),
  ]);
});

it('When a seated reservation moves onto a table its own order already holds plus a free one, then the order takes both', async () => {
  const { body, orderId } = await seat();

  const res = await put(body, { tableIds: [loc.tables[0], loc.tables[1]] });

  expect(res.status).toBe(200);
  const [order] = await h.openOrders(loc);
  expect(order).toMatchObject({ id: orderId });
  expect([...(order!['tableIds'] as string[])].sort()).toEqual([loc.tables[0], loc.tables[1]].sort());
});

it('When a seated reservation changes only its covers, then the order takes the new covers', async () => {
  const { body, orderId } = await seat();

  await put(body, { covers: 5 }).expect(200);

  expect(await h.openOrders(loc)).toEqual([expect.objectContaining({ id: orderId, covers: 5 })]);
});

it('When a booked reservation is later seated, then an order opens then, with arrivedAt set at that write', async () => {
  const body = reservation({ tableIds: [loc.tables[0]] });
  await loc.api.post(`${P}/reservations`).send(body).expect(201);
  expect(await h.openOrders(loc)).toEqual([]);

  const res = await put(body, { status: 'seated' });

  expect(res.body.reservation.arrivedAt).toBe(res.body.reservation.receivedAt);
  expect(await h.openOrders(loc)).toEqual([
    expect.objectContaining({
      id: res.body.reservation.linkedOrderId,
      reservationExternalId: body['externalId'],
    }),
  ]);
});

it('When a table with an open order is deactivated and published, then the order stays open until the till closes it', async () => {
  const { orderId } = await seat();

  await h.operator
    .patch(loc.ops(`/tables/${loc.tables[0]}`))
    .send({ active: false })
    .expect(200);
  await h.operator.post(loc.ops('/floorplan/publish')).expect(200);

  expect(await h.openOrders(loc)).toEqual([expect.objectContaining({ id: orderId })]);
  await h.operator.post(loc.ops(`/orders/${orderId}/close`)).expect(200);
  expectEnvelope(
    await h.operator.post(loc.ops('/orders')).send({ tableIds: [loc.tables[0]], covers: 1 }),
    422,
    'unknown_table_id',
  );
});

it('When the order of a seated reservation is closed, then its table is free for the next seat', async () => {
  const { orderId } = await seat();
  await h.operator.post(loc.ops(`/orders/${orderId}/close`)).expect(200);

  const next = await loc.api
    .post(`${P}/reservations`)
    .send(reservation({ status: 'seated', tableIds: [loc.tables[0]] }));

  expect(next.status).toBe(201);
  expect(next.body.reservation.linkedOrderId).not.toBe(orderId);
});

it('When a table is deactivated in the working plan but not yet published, then reservations may still name it', async () => {
  await h.operator
    .patch(loc.ops(`/tables/${loc.tables[0]}`))
    .send({ active: false })
    .expect(200);

  const res = await loc.api
    .post(`${P}/reservations`)
    .send(reservation({ status: 'seated', tableIds: [loc.tables[0]] }));

  expect(res.status).toBe(201);
});
