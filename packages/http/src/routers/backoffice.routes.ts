import {
  addOrderDiscount,
  addOrderItem,
  addOrderPayment,
  createLocation,
  editTable,
  finishOrderCommand,
  getWorkingPlan,
  issueApiKey,
  listLocationWebhookDeliveries,
  listOrders,
  moveOrderCommand,
  openWalkInOrder,
  previewFloorPlanPublish,
  publishFloorPlan,
  redeliverLocationWebhook,
  revokeApiKey,
  setOrderServiceStatus,
  voidOrderItem,
  type Deps,
} from '@pis/domain';
import {
  toApiKeyResponse,
  toLocationCommand,
  toLocationResponse,
  toOrderDiscount,
  toOrderItem,
  toOrderListCommand,
  toOrderPayment,
  toOrderListResponse,
  toOrderResponse,
  toPublishPreviewResponse,
  toPublishResponse,
  toTablePatch,
  toTableResponse,
  toWorkingPlanResponse,
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
  /** Called after a key is revoked, so every cache that could still hold it drops it. */
  keyRevoked(keyId: string): void | Promise<void>;
}

/** Handlers of the operator surface (docs/reference/backoffice-api.md) by operationId. */
export function backofficeHandlers(
  deps: Deps,
  validator: ContractValidator,
  hooks: BackofficeHooks,
  loc: LocationScope = pathLocation,
): RouteHandlers {
  const ofOrder = (req: Request) => ({ locationId: loc(req), orderId: param(req, 'orderId') });
  const finish = (how: 'closed' | 'voided') =>
    endpoint(async (req) =>
      respond(finishOrderCommand(deps, { ...ofOrder(req), how }), 200, toOrderResponse),
    );
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
      const command = { locationId: loc(req), tableIds: [...body.value.tableIds], covers: body.value.covers };
      return respond(openWalkInOrder(deps, command), 201, toOrderResponse);
    }),

    listOrders: endpoint(async (req) => {
      const query = accepted(validator.orderListQuery(req.query));
      if (!query.ok) return query;
      const command = { locationId: loc(req), ...toOrderListCommand(query.value) };
      return respond(listOrders(deps, command), 200, toOrderListResponse);
    }),

    addOrderItem: endpoint(async (req) => {
      const body = accepted(validator.orderItemRequest(req.body));
      if (!body.ok) return body;
      return respond(
        addOrderItem(deps, { ...ofOrder(req), ...toOrderItem(body.value) }),
        200,
        toOrderResponse,
      );
    }),

    voidOrderItem: endpoint(async (req) =>
      respond(voidOrderItem(deps, { ...ofOrder(req), itemId: param(req, 'itemId') }), 200, toOrderResponse),
    ),

    addOrderDiscount: endpoint(async (req) => {
      const body = accepted(validator.orderDiscountRequest(req.body));
      if (!body.ok) return body;
      const command = { ...ofOrder(req), ...toOrderDiscount(body.value) };
      return respond(addOrderDiscount(deps, command), 200, toOrderResponse);
    }),

    addOrderPayment: endpoint(async (req) => {
      const body = accepted(validator.orderPaymentRequest(req.body));
      if (!body.ok) return body;
      const command = { ...ofOrder(req), ...toOrderPayment(body.value) };
      return respond(addOrderPayment(deps, command), 200, toOrderResponse);
    }),

    setOrderServiceStatus: endpoint(async (req) => {
      const body = accepted(validator.orderServiceStatusRequest(req.body));
      if (!body.ok) return body;
      const command = { ...ofOrder(req), status: body.value.status };
      return respond(setOrderServiceStatus(deps, command), 200, toOrderResponse);
    }),

    moveOrder: endpoint(async (req) => {
      const body = accepted(validator.orderMoveRequest(req.body));
      if (!body.ok) return body;
      const command = {
        locationId: loc(req),
        orderId: param(req, 'orderId'),
        tableIds: [...body.value.tableIds],
      };
      return respond(moveOrderCommand(deps, command), 200, toOrderResponse);
    }),

    closeOrder: finish('closed'),
    voidOrder: finish('voided'),

    listLocationWebhookDeliveries: deliveryLog.list,
    redeliverLocationWebhook: deliveryLog.redeliver,
  };
}
