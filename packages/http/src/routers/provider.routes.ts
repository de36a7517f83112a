import {
  createReservation,
  deleteWebhookEndpoint,
  getPublishedFloorPlan,
  getWebhookEndpoint,
  importFloorPlan,
  listReservations,
  listWebhookDeliveries,
  readEventFeed,
  readTableState,
  recoverWebhooks,
  redeliverWebhook,
  registerWebhookEndpoint,
  rotateWebhookSecret,
  sendTestWebhook,
  updateReservation,
  type Deps,
} from '@pis/domain';
import {
  toImportInput,
  toImportResultResponse,
  toPublishedFloorPlanResponse,
  toReservationInput,
  toReservationListCommand,
  toReservationListResponse,
  toReservationWriteResponse,
  toWebhookEndpointCommand,
  toWebhookEndpointResponse,
  toEventFeedCommand,
  toEventFeedResponse,
  toRecoverFrom,
  toRecoverResponse,
  toTableStateResponse,
  type ContractValidator,
} from '@pis/contract';
import { principalOf } from '../auth/provider-auth';
import { deliveryLogHandlers } from './delivery-log';
import { accepted, endpoint, param, respond } from './endpoint';
import type { RouteHandlers } from './operation-routes';

/** Handlers of the provider API by operationId; the location always comes from the key. */
export function providerHandlers(deps: Deps, validator: ContractValidator): RouteHandlers {
  const at = (res: { locals: Record<string, unknown> }) => principalOf(res.locals).locationId;
  const deliveryLog = deliveryLogHandlers(
    deps,
    validator,
    { list: listWebhookDeliveries, redeliver: redeliverWebhook },
    (_req, res) => at(res),
  );

  return {
    createReservation: endpoint(async (req, res) => {
      const body = accepted(validator.reservationRequest(req.body));
      if (!body.ok) return body;
      const input = toReservationInput(body.value);
      return respond(
        createReservation(deps, { locationId: at(res), input }),
        201,
        toReservationWriteResponse,
      );
    }),

    updateReservation: endpoint(async (req, res) => {
      const body = accepted(validator.reservationRequest(req.body));
      if (!body.ok) return body;
      const command = {
        locationId: at(res),
        externalId: param(req, 'externalId'),
        input: toReservationInput(body.value),
      };
      return respond(updateReservation(deps, command), 200, toReservationWriteResponse);
    }),

    listReservations: endpoint(async (req, res) => {
      const query = accepted(validator.reservationListQuery(req.query));
      if (!query.ok) return query;
      const command = accepted(toReservationListCommand(query.value));
      if (!command.ok) return command;
      const generatedAt = deps.clock.now();
      return respond(listReservations(deps, { locationId: at(res), ...command.value }), 200, (page) =>
        toReservationListResponse(page, generatedAt),
      );
    }),

    getFloorPlan: endpoint(
      async (_req, res) =>
        respond(getPublishedFloorPlan(deps, { locationId: at(res) }), 200, toPublishedFloorPlanResponse),
      { floorplan_not_published: 404 },
    ),

    importFloorPlan: endpoint(async (req, res) => {
      const body = accepted(validator.floorPlanImportRequest(req.body));
      if (!body.ok) return body;
      const input = toImportInput(body.value);
      return respond(importFloorPlan(deps, { locationId: at(res), input }), 201, toImportResultResponse);
    }),

    getWebhookEndpoint: endpoint(async (_req, res) =>
      respond(getWebhookEndpoint(deps, { locationId: at(res) }), 200, toWebhookEndpointResponse),
    ),

    putWebhookEndpoint: endpoint(async (req, res) => {
      const body = accepted(validator.webhookEndpointRequest(req.body));
      if (!body.ok) return body;
      const command = { locationId: at(res), ...toWebhookEndpointCommand(body.value) };
      return respond(registerWebhookEndpoint(deps, command), 200, toWebhookEndpointResponse);
    }),

    deleteWebhookEndpoint: endpoint(async (_req, res) =>
      respond(deleteWebhookEndpoint(deps, { locationId: at(res) }), 204, () => undefined),
    ),

    rotateWebhookSecret: endpoint(async (_req, res) =>
      respond(rotateWebhookSecret(deps, { locationId: at(res) }), 200, toWebhookEndpointResponse),
    ),

    testWebhookEndpoint: endpoint(async (_req, res) =>
      respond(sendTestWebhook(deps, { locationId: at(res) }), 200, (result) => ({ ...result })),
    ),

    listEvents: endpoint(async (req, res) => {
      const query = accepted(validator.eventFeedQuery(req.query));
      if (!query.ok) return query;
      const command = { locationId: at(res), ...toEventFeedCommand(query.value) };
      return respond(readEventFeed(deps, command), 200, toEventFeedResponse);
    }),

    getTableState: endpoint(async (_req, res) =>
      respond(readTableState(deps, { locationId: at(res) }), 200, toTableStateResponse),
    ),

    recoverWebhooks: endpoint(async (req, res) => {
      const body = accepted(validator.recoverRequest(req.body));
      if (!body.ok) return body;
      const command = { locationId: at(res), from: toRecoverFrom(body.value) };
      return respond(recoverWebhooks(deps, command), 202, toRecoverResponse);
    }),

    listWebhookDeliveries: deliveryLog.list,
    redeliverWebhook: deliveryLog.redeliver,
  };
}
