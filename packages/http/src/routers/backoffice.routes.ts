import {
  addOrderItem,
  createLocation,
  editTable,
  finishOrderCommand,
  getWorkingPlan,
  issueApiKey,
  listOrders,
  moveOrderCommand,
  openWalkInOrder,
  publishFloorPlan,
  revokeApiKey,
  type Deps,
} from '@pis/domain';
import {
  toApiKeyResponse,
  toLocationCommand,
  toLocationResponse,
  toOrderItem,
  toOrderListCommand,
  toOrderListResponse,
  toOrderResponse,
  toPublishResponse,
  toTablePatch,
  toTableResponse,
  toWorkingPlanResponse,
  type ContractValidator,
} from '@pis/contract';
import { accepted, endpoint, param, respond } from './endpoint';
import type { RouteHandlers } from './operation-routes';

export interface BackofficeHooks {
  /** Called after a key is revoked, so every cache that could still hold it drops it. */
  keyRevoked(keyId: string): void | Promise<void>;
}

/** Handlers of the operator surface (decisions section 8) by operationId. */
export function backofficeHandlers(
  deps: Deps,
  validator: ContractValidator,
  hooks: BackofficeHooks,
): RouteHandlers {
  const loc = (req: Parameters<typeof param>[0]) => param(req, 'locationId');
  const finish = (how: 'closed' | 'voided') =>
    endpoint(async (req) =>
      respond(
        finishOrderCommand(deps, { locationId: loc(req), orderId: param(req, 'orderId'), how }),
        200,
        toOrderResponse,
      ),
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
      const command = { locationId: loc(req), orderId: param(req, 'orderId'), ...toOrderItem(body.value) };
      return respond(addOrderItem(deps, command), 200, toOrderResponse);
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
  };
}
