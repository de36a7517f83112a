import {
  addOrderDiscount,
  addOrderItem,
  addOrderPayment,
  createLocation,
  createProvider,
  editTable,
  getProvider,
  grantConnection,
  issueProviderKey,
  listLocationConnections,
  listLocations,
  listProviders,
  revokeConnection,
  revokeProviderKey,
  finishOrderAs,
  getWorkingPlan,
  issueApiKey,
  listLocationWebhookDeliveries,
  listOrders,
  moveOrderToTables,
  openWalkInOrder,
  previewFloorPlanPublish,
  publishFloorPlan,
  redeliverLocationWebhook,
  revokeApiKey,
  setOrderServiceStatus,
  voidOrderItem,
  visibleTo,
  VENUE,
  type Deps,
  type Order,
  type Reader,
} from '@pis/domain';
import {
  toApiKeyResponse,
  toLocationCommand,
  toLocationResponse,
  toOrderDiscount,
  toOrderItem,
  toOrderListCommand,
  toOrderPayment,
  toOrderResponse,
  toPublishPreviewResponse,
  toPublishResponse,
  toTablePatch,
  toTableResponse,
  toWorkingPlanResponse,
  toConnectionResponse,
  toLocationConnectionListResponse,
  toLocationListCommand,
  toLocationListResponse,
  toProviderCommand,
  toProviderKeyMode,
  toProviderKeyResponse,
  toProviderListCommand,
  toProviderListResponse,
  toProviderResponse,
  type ContractValidator,
} from '@pis/contract';
import type { Request } from 'express';
import { deliveryLogHandlers } from './delivery-log';
import { accepted, endpoint, param, respond } from './endpoint';
import type { RouteHandlers } from './operation-routes';

/** Which location a request acts on: the path's for the operator, the key's for the simulator. */
export type LocationScope = (req: Request) => string;

export const pathLocation: LocationScope = (req) => param(req, 'locationId');

export interface BackofficeHooks {
  /** Called after a key (of either kind) is revoked, so every cache that could still hold it drops it. */
  keyRevoked(keyId: string): void | Promise<void>;
  /** Called after a connection is revoked, so every cache that could still hold it drops it. */
  connectionRevoked?(providerId: string, locationId: string): void | Promise<void>;
}

/**
 * Handlers of the operator surface (docs/reference/backoffice-api.md) by operationId. `readerOf`
 * says who reads the orders: the venue (every reservation id), or for the till simulator the
 * provider whose key calls it, which sees another provider's reservation as a walk-in.
 */
export function backofficeHandlers(
  deps: Deps,
  validator: ContractValidator,
  hooks: BackofficeHooks,
  loc: LocationScope = pathLocation,
  readerOf: (req: Request) => Reader = () => VENUE,
): RouteHandlers {
  const ofOrder = (req: Request) => ({ locationId: loc(req), orderId: param(req, 'orderId') });
  const orderView = (req: Request) => (o: Order) =>
    toOrderResponse(visibleTo(readerOf(req), o.reservationProviderId, o));
  const finish = (how: 'closed' | 'voided') =>
    endpoint(async (req) => respond(finishOrderAs(deps, { ...ofOrder(req), how }), 200, orderView(req)));
  const deliveryLog = deliveryLogHandlers(
    deps,
    validator,
    { list: listLocationWebhookDeliveries, redeliver: redeliverLocationWebhook },
    (req) => loc(req),
  );

  return {
    createLocation: endpoint(async (req) => {
      const body = accepted(validator.locationCreateRequest(req.body));
      if (!body.ok) return body;
      return respond(createLocation(deps, toLocationCommand(body.value)), 201, toLocationResponse);
    }),

    listLocations: endpoint(async (req) => {
      const query = accepted(validator.pageQuery(req.query));
      if (!query.ok) return query;
      const command = accepted(toLocationListCommand(query.value));
      if (!command.ok) return command;
      return respond(listLocations(deps, command.value), 200, toLocationListResponse);
    }),

    listLocationConnections: endpoint(async (req) =>
      respond(listLocationConnections(deps, { locationId: loc(req) }), 200, toLocationConnectionListResponse),
    ),

    grantConnection: endpoint(async (req) => {
      const granted = await grantConnection(deps, {
        locationId: loc(req),
        providerId: param(req, 'providerId'),
      });
      if (!granted.ok) return granted;
      return {
        status: granted.value.created ? 201 : 200,
        body: toConnectionResponse(granted.value.connection),
      };
    }),

    revokeConnection: endpoint(async (req) => {
      const pair = { locationId: loc(req), providerId: param(req, 'providerId') };
      const revoked = await revokeConnection(deps, pair);
      if (revoked.ok) await hooks.connectionRevoked?.(pair.providerId, pair.locationId);
      return respond(revoked, 204, () => undefined);
    }),

    createProvider: endpoint(async (req) => {
      const body = accepted(validator.providerCreateRequest(req.body));
      if (!body.ok) return body;
      return respond(createProvider(deps, toProviderCommand(body.value)), 201, toProviderResponse);
    }),

    listProviders: endpoint(async (req) => {
      const query = accepted(validator.pageQuery(req.query));
      if (!query.ok) return query;
      const command = accepted(toProviderListCommand(query.value));
      if (!command.ok) return command;
      return respond(listProviders(deps, command.value), 200, toProviderListResponse);
    }),

    getProvider: endpoint(async (req) =>
      respond(getProvider(deps, { providerId: param(req, 'providerId') }), 200, toProviderResponse),
    ),

    issueProviderKey: endpoint(async (req) => {
      const body =
        req.body === undefined
          ? { ok: true as const, value: undefined }
          : accepted(validator.providerKeyRequest(req.body));
      if (!body.ok) return body;
      const command = { providerId: param(req, 'providerId'), mode: toProviderKeyMode(body.value) };
      return respond(issueProviderKey(deps, command), 201, toProviderKeyResponse);
    }),

    revokeProviderKey: endpoint(async (req) => {
      const revoked = await revokeProviderKey(deps, {
        providerId: param(req, 'providerId'),
        keyId: param(req, 'keyId'),
      });
      if (revoked.ok) await hooks.keyRevoked(revoked.value.keyId);
      return respond(revoked, 204, () => undefined);
    }),

    issueApiKey: endpoint(async (req) =>
      respond(issueApiKey(deps, { locationId: loc(req) }), 201, toApiKeyResponse),
    ),

    revokeApiKey: endpoint(async (req) => {
      const revoked = await revokeApiKey(deps, { locationId: loc(req), keyId: param(req, 'keyId') });
      if (revoked.ok) await hooks.keyRevoked(revoked.value.keyId);
      return respond(revoked, 204, () => undefined);
    }),

    getWorkingPlan: endpoint(async (req) =>
      respond(getWorkingPlan(deps, { locationId: loc(req) }), 200, toWorkingPlanResponse),
    ),

    previewFloorPlanPublish: endpoint(async (req) =>
      respond(previewFloorPlanPublish(deps, { locationId: loc(req) }), 200, toPublishPreviewResponse),
    ),

    publishFloorPlan: endpoint(async (req) =>
      respond(publishFloorPlan(deps, { locationId: loc(req) }), 200, toPublishResponse),
    ),

    editTable: endpoint(async (req) => {
      const body = accepted(validator.tablePatchRequest(req.body));
      if (!body.ok) return body;
      const command = {
        locationId: loc(req),
        tableId: param(req, 'tableId'),
        patch: toTablePatch(body.value),
      };
      return respond(editTable(deps, command), 200, toTableResponse);
    }),

    openWalkInOrder: endpoint(async (req) => {
      const body = accepted(validator.orderCreateRequest(req.body));
      if (!body.ok) return body;
      const command = {
        locationId: loc(req),
        tableIds: [...body.value.tableIds],
        covers: body.value.covers,
        reader: readerOf(req),
      };
      return respond(openWalkInOrder(deps, command), 201, orderView(req));
    }),

    listOrders: endpoint(async (req) => {
      const query = accepted(validator.orderListQuery(req.query));
      if (!query.ok) return query;
      const command = { locationId: loc(req), ...toOrderListCommand(query.value) };
      const view = orderView(req);
      return respond(listOrders(deps, command), 200, ({ orders }) => ({ orders: orders.map(view) }));
    }),

    addOrderItem: endpoint(async (req) => {
      const body = accepted(validator.orderItemRequest(req.body));
      if (!body.ok) return body;
      return respond(
        addOrderItem(deps, { ...ofOrder(req), ...toOrderItem(body.value) }),
        200,
        orderView(req),
      );
    }),

    voidOrderItem: endpoint(async (req) =>
      respond(voidOrderItem(deps, { ...ofOrder(req), itemId: param(req, 'itemId') }), 200, orderView(req)),
    ),

    addOrderDiscount: endpoint(async (req) => {
      const body = accepted(validator.orderDiscountRequest(req.body));
      if (!body.ok) return body;
      const command = { ...ofOrder(req), ...toOrderDiscount(body.value) };
      return respond(addOrderDiscount(deps, command), 200, orderView(req));
    }),

    addOrderPayment: endpoint(async (req) => {
      const body = accepted(validator.orderPaymentRequest(req.body));
      if (!body.ok) return body;
      const command = { ...ofOrder(req), ...toOrderPayment(body.value) };
      return respond(addOrderPayment(deps, command), 200, orderView(req));
    }),

    setOrderServiceStatus: endpoint(async (req) => {
      const body = accepted(validator.orderServiceStatusRequest(req.body));
      if (!body.ok) return body;
      const command = { ...ofOrder(req), status: body.value.status };
      return respond(setOrderServiceStatus(deps, command), 200, orderView(req));
    }),

    moveOrder: endpoint(async (req) => {
      const body = accepted(validator.orderMoveRequest(req.body));
      if (!body.ok) return body;
      const command = {
        locationId: loc(req),
        orderId: param(req, 'orderId'),
        tableIds: [...body.value.tableIds],
        reader: readerOf(req),
      };
      return respond(moveOrderToTables(deps, command), 200, orderView(req));
    }),

    closeOrder: finish('closed'),
    voidOrder: finish('voided'),

    listLocationWebhookDeliveries: deliveryLog.list,
    redeliverLocationWebhook: deliveryLog.redeliver,
  };
}
