import { exampleBodies, type OperationSpec } from '@pis/contract';
import type { Harness, TestLocation } from './harness';
import { B, P, nextUpdatedAt, planImport, reservation, uniqueId, type Json } from './wire';

/**
 * Real things for every operation of the contract to name (suites that call each operation with
 * a valid request: hardening/fuzz-headers.spec.ts, rate-limit-headers.spec.ts): a live location
 * with a spare key, an open order with an item, a reservation, an endpoint with a delivery and a
 * published plan; and a sandbox location with its own open order and item for the simulator.
 */
export interface OperationWorld {
  loc: TestLocation;
  spareKeyId: string;
  orderId: string;
  itemId: string;
  deliveryId: string;
  /** The reservation the reservation operations name. */
  externalId: string;
  /** The simulator's operations run with this sandbox location's test key, on its order and item. */
  sandbox: TestLocation;
  sandboxOrderId: string;
  sandboxItemId: string;
  /** A provider connected to `loc`, which the provider and connection operations name. */
  providerId: string;
  /** An endpoint of `loc` made by id (beside the singleton), which the `/webhook-endpoints/{endpointId}` operations name. */
  endpointId: string;
}

async function itemOf(h: Harness, at: TestLocation, orderId: string): Promise<string> {
  const res = await h.operator
    .post(at.ops(`/orders/${orderId}/items`))
    .send({ label: 'Bread', amountMinor: 300 })
    .expect(200);
  return res.body.check.items[0].id as string;
}

export async function operationWorld(h: Harness, externalId: string): Promise<OperationWorld> {
  const loc = await h.location({ tables: 4 });
  const spareKeyId = (await h.operator.post(loc.ops('/api-keys')).expect(201)).body.id as string;
  const orderId = ((await h.walkIn(loc, [loc.tables[0]!])) as Json)['id'] as string;
  const itemId = await itemOf(h, loc, orderId);
  await loc.api.post(`${P}/reservations`).send(reservation({ externalId })).expect(201);
  await loc.api.put(`${P}/webhook-endpoint`).send({ url: 'https://hooks.example.test/hook' }).expect(200);
  await h.operator.post(loc.ops('/floorplan/publish')).expect(200);
  await h.relayOutbox();
  const deliveryId = (await loc.api.get(`${P}/webhook-deliveries`).expect(200)).body.deliveries[0]
    .id as string;
  const sandbox = await h.location({ sandbox: true, tables: 4 });
  const sandboxOrderId = ((await h.walkIn(sandbox, [sandbox.tables[0]!])) as Json)['id'] as string;
  const sandboxItemId = await itemOf(h, sandbox, sandboxOrderId);
  const provider = await h.operator.post(`${B}/providers`).send({ name: 'Spare', brand: 'spare' });
  const providerId = provider.body.id as string;
  await h.operator.put(loc.ops(`/connections/${providerId}`)).expect(201);
  const endpoint = await loc.api
    .post(`${P}/webhook-endpoints`)
    .send({ url: 'https://hooks.example.test/by-id' })
    .expect(201);
  return {
    loc,
    spareKeyId,
    orderId,
    itemId,
    deliveryId,
    externalId,
    sandbox,
    sandboxOrderId,
    sandboxItemId,
    providerId,
    endpointId: endpoint.body.id as string,
  };
}

/** A simulator operation (under `/api/provider/v1/sandbox/`, a sandbox location's test key). */
export const simulated = (op: OperationSpec) => op.tag === 'sandbox';

/** `sandboxAddOrderItem` -> `addOrderItem`: the simulator takes the backoffice operation's requests. */
const requestId = (op: OperationSpec) =>
  simulated(op) ? `${op.operationId[7]!.toLowerCase()}${op.operationId.slice(8)}` : op.operationId;

/** The operation's path with real ids, a query where it needs one, and a valid body where it takes one. */
export function requestOf(world: OperationWorld, op: OperationSpec): { path: string; body?: Json } {
  const { loc, sandbox } = world;
  const at = simulated(op) ? sandbox : loc;
  const path = op.path
    .replace('{locationId}', loc.id)
    .replace('{keyId}', world.spareKeyId)
    .replace('{tableId}', loc.tables[1]!)
    .replace('{orderId}', simulated(op) ? world.sandboxOrderId : world.orderId)
    .replace('{itemId}', simulated(op) ? world.sandboxItemId : world.itemId)
    .replace('{deliveryId}', world.deliveryId)
    .replace('{providerId}', world.providerId)
    .replace('{endpointId}', world.endpointId)
    .replace('{externalId}', world.externalId);
  const query: Record<string, string> = {
    listReservations: '?from=2026-11-01T00:00Z&to=2026-11-30T00:00Z',
    listOrders: '?status=open',
    listEvents: '?after=0&limit=5&types=table.occupied',
  };
  const bodies: Record<string, () => Json> = {
    createReservation: () => reservation(),
    updateReservation: () => reservation({ externalId: world.externalId, updatedAt: nextUpdatedAt() }),
    importFloorPlan: () => planImport(),
    putWebhookEndpoint: () => ({ url: 'https://hooks.example.test/hook' }),
    createWebhookEndpoint: () => ({
      url: 'https://hooks.example.test/another',
      eventTypes: ['table.occupied'],
    }),
    patchWebhookEndpoint: () => ({ description: 'patched' }),
    recoverScopedWebhooks: () => exampleBodies.recoverAfterBody(0),
    createLocation: () => ({ name: `Location ${uniqueId('h')}`, brand: 'test' }),
    // The contract's fixtures: the requests the OpenAPI document's examples were recorded with.
    editTable: () => exampleBodies.tablePatchBody(),
    openWalkInOrder: () => exampleBodies.walkInBody([at.tables[2]!]),
    addOrderItem: () => exampleBodies.orderItemBody(),
    moveOrder: () => exampleBodies.moveBody([at.tables[3]!]),
    addOrderDiscount: () => exampleBodies.orderDiscountBody(),
    addOrderPayment: () => exampleBodies.orderPaymentBody(),
    setOrderServiceStatus: () => exampleBodies.serviceStatusBody(),
    recoverWebhooks: () => exampleBodies.recoverAfterBody(0),
    createProvider: () => ({ name: `Provider ${uniqueId('p')}`, brand: 'test' }),
    issueProviderKey: () => ({ mode: 'live' }),
  };
  const body = op.body === undefined ? undefined : bodies[requestId(op)]!();
  return { path: `${path}${query[requestId(op)] ?? ''}`, ...(body ? { body } : {}) };
}
