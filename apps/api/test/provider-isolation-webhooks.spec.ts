import { deliveringToReceiver } from './support/delivering';
import type { Harness, TestLocation } from './support/harness';
import { createProvider, grant, type TestProvider } from './support/providers';
import { verified, type Receiver } from './support/receiver';
import { B, P, reservation, type Json } from './support/wire';

/**
 * docs/reference/providers.md#isolation, for webhooks: the location's endpoint belongs to the
 * location's own provider, so an event about another provider's reservation reaches it with
 * `reservationExternalId: null` (as for a walk-in), signed over that body, with the same
 * webhook-id and sequence as everywhere; its own reservations keep their ids. Delivered by
 * the API's in-process delivery, verified by a real receiver.
 */
let h: Harness;
let receiver: Receiver;
deliveringToReceiver((file) => ({ h, receiver } = file));

let loc: TestLocation;
let other: TestProvider;
let path: string;
let secret: string;
beforeEach(async () => {
  loc = await h.location({ tables: 3 });
  other = await createProvider(h);
  await grant(h, loc, other);
  path = `/hooks/${loc.id}`;
  const registered = await loc.api
    .put(`${P}/webhook-endpoint`)
    .send({ url: `${receiver.origin}${path}`, events: ['table.occupied', 'table.freed', 'order.closed'] })
    .expect(200);
  secret = registered.body.secret as string;
});

/** Verified deliveries to this location's endpoint (every one, retries and recoveries included). */
const delivered = () =>
  receiver
    .at(path)
    .map((request) => ({ id: String(request.headers['webhook-id']), body: verified(request, secret) }));

const dataOf = (event: Json) => event['data'] as Json;

async function occupiedOn(tableId: string, count = 1) {
  return receiver.until(
    () => {
      const got = delivered().filter(
        ({ body }) => body['type'] === 'table.occupied' && dataOf(body)['tableId'] === tableId,
      );
      return got.length >= count ? got : undefined;
    },
    10_000,
    `table.occupied for ${tableId}`,
  );
}

const seated = (externalId: string, tableId: string) =>
  reservation({ externalId, status: 'seated', tableIds: [tableId] });

it('When another provider seats its reservation, then the location’s endpoint gets table.occupied with reservationExternalId null, signed over that body; its own reservation keeps its id', async () => {
  await other.at(loc).post(`${P}/reservations`).send(seated('theirs-1', loc.tables[0]!)).expect(201);
  await loc.api.post(`${P}/reservations`).send(seated('mine-1', loc.tables[1]!)).expect(201);

  const [theirs] = await occupiedOn(loc.tables[0]!);
  const [mine] = await occupiedOn(loc.tables[1]!);

  expect(dataOf(theirs!.body)['reservationExternalId']).toBeNull();
  expect(dataOf(mine!.body)['reservationExternalId']).toBe('mine-1');
  expect(JSON.stringify(delivered().map((d) => d.body))).not.toContain('theirs-1');
});

it('When the till closes another provider’s order and the endpoint recovers, then order.closed and every recovered event carry null for its reservation, with their original webhook-ids', async () => {
  await other.at(loc).post(`${P}/reservations`).send(seated('theirs-2', loc.tables[2]!)).expect(201);
  const orderId = await openOrderOn(loc, loc.tables[2]!);
  await h.operator.post(`${B}/locations/${loc.id}/orders/${orderId}/close`).expect(200);
  const closed = await receiver.until(
    () => delivered().find(({ body }) => body['type'] === 'order.closed'),
    10_000,
    'order.closed',
  );
  const [occupied] = await occupiedOn(loc.tables[2]!);

  await loc.api.post(`${P}/webhook-endpoint/recover`).send({ afterSequence: 0 }).expect(202);
  const again = await occupiedOn(loc.tables[2]!, 2);

  expect(dataOf(closed.body)['reservationExternalId']).toBeNull();
  expect(dataOf(occupied!.body)['reservationExternalId']).toBeNull();
  expect(new Set(again.map((d) => d.id))).toEqual(new Set([occupied!.id]));
  expect(again.every((d) => dataOf(d.body)['reservationExternalId'] === null)).toBe(true);
  expect(JSON.stringify(delivered().map((d) => d.body))).not.toContain('theirs-2');
});

async function openOrderOn(location: TestLocation, tableId: string): Promise<string> {
  const open = await h.operator.get(`${B}/locations/${location.id}/orders?status=open`).expect(200);
  const order = (open.body.orders as Json[]).find((o) => (o['tableIds'] as string[]).includes(tableId));
  if (!order) throw new Error(`no open order on ${tableId}`);
  return order['id'] as string;
}
