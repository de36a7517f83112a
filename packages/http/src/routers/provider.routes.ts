import {
  createReservation,
  deleteWebhookEndpoint,
  getPublishedFloorPlan,
  getWebhookEndpoint,
  importFloorPlan,
  listReservations,
  listWebhookDeliveries,
  redeliverWebhook,
  registerWebhookEndpoint,
  rotateWebhookSecret,
  updateReservation,
  type Deps,
} from '@pis/domain';
import {
  toDeliveryListCommand,
  toDeliveryListResponse,
  toImportInput,
  toImportResultResponse,
  toPublishedFloorPlanResponse,
  toReservationInput,
  toReservationListCommand,
  toReservationListResponse,
  toReservationWriteResponse,
  toWebhookEndpointCommand,
  toWebhookEndpointResponse,
  type ContractValidator,
} from '@pis/contract';
import { principalOf } from '../auth/provider-auth';
import { accepted, endpoint, param, respond, type Reply } from './endpoint';
import type { RouteHandlers } from './operation-routes';

/** Handlers of the provider API by operationId; the location always comes from the key. */
export function providerHandlers(deps: Deps, validator: ContractValidator): RouteHandlers {
  const at = (res: { locals: Record<string, unknown> }) => principalOf(res.locals).locationId;

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

    listWebhookDeliveries: endpoint(async (req, res): Promise<Reply> => {
      const query = accepted(validator.deliveryListQuery(req.query));
      if (!query.ok) return query;
      const command = accepted(toDeliveryListCommand(query.value));
      if (!command.ok) return command;
      return respond(
        listWebhookDeliveries(deps, { locationId: at(res), ...command.value }),
        200,
        toDeliveryListResponse,
      );
    }),

    redeliverWebhook: endpoint(async (req, res) =>
      respond(
        redeliverWebhook(deps, { locationId: at(res), deliveryId: param(req, 'deliveryId') }),
        202,
        (v) => v,
      ),
    ),
  };
}
