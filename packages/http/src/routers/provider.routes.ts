import {
  createReservation,
  deleteWebhookEndpoint,
  getPublishedFloorPlan,
  getWebhookEndpoint,
  importFloorPlan,
  listProviderConnections,
  listReservations,
  listWebhookDeliveries,
  readEventFeed,
  readTableState,
  recoverWebhooks,
  recoverScopedWebhooks,
  redeliverWebhook,
  registerWebhookEndpoint,
  rotateWebhookSecret,
  sendTestWebhook,
  changeWebhookEndpoint,
  createWebhookEndpoint,
  deleteScopedWebhookEndpoint,
  getScopedWebhookEndpoint,
  listWebhookEndpoints,
  rotateScopedWebhookSecret,
  sendScopedTestWebhook,
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
  toWebhookEndpointCreation,
  toWebhookEndpointChange,
  toScopedWebhookEndpointResponse,
  toDeliveryListCommand,
  toDeliveryListResponse,
  toEventFeedCommand,
  toEventFeedResponse,
  toRecoverFrom,
  toRecoverResponse,
  toTableStateResponse,
  toConnectionListCommand,
  toConnectionListResponse,
  type ContractValidator,
} from '@pis/contract';
import type { RequestHandler } from 'express';
import { callerOf, inProviderScope, ownEndpointOnly, principalOf } from '../auth/provider-auth';
import { deliveryLogHandlers } from './delivery-log';
import { accepted, endpoint, param, respond } from './endpoint';
import type { RouteHandlers } from './operation-routes';

type Locals = { locals: Record<string, unknown> };

/** Runs `guard` first; `handler` only when the guard lets the request through. */
const guarded =
  (guard: RequestHandler, handler: RequestHandler): RequestHandler =>
  (req, res, next) =>
    guard(req, res, (error?: unknown) => (error === undefined ? handler(req, res, next) : next(error)));

/**
 * Handlers of the provider API by operationId: the location is the one the request acts on
 * (the location key's, or a provider key's Location-Id) and the provider the key's, so every
 * reservation read or written is the caller's own and every view hides another provider's
 * reservation ids.
 */
export function providerHandlers(deps: Deps, validator: ContractValidator): RouteHandlers {
  const at = (res: Locals) => principalOf(res.locals).locationId;
  const scope = (res: Locals) => ({ locationId: at(res), providerId: principalOf(res.locals).providerId });
  // The webhook endpoint routes: a location's scope, or (a provider key without Location-Id) the provider's.
  const endpointScope = (res: Locals): { locationId: string | null; providerId: string } =>
    inProviderScope(res.locals)
      ? { locationId: null, providerId: callerOf(res.locals).providerId }
      : scope(res);
  const deliveryLog = deliveryLogHandlers(
    deps,
    validator,
    { list: listWebhookDeliveries, redeliver: redeliverWebhook },
    (_req, res) => at(res),
  );
  const ownEndpoint = ownEndpointOnly();

  const handlers: RouteHandlers = {
    createReservation: endpoint(async (req, res) => {
      const body = accepted(validator.reservationRequest(req.body));
      if (!body.ok) return body;
      const input = toReservationInput(body.value);
      return respond(createReservation(deps, { ...scope(res), input }), 201, toReservationWriteResponse);
    }),

    updateReservation: endpoint(async (req, res) => {
      const body = accepted(validator.reservationRequest(req.body));
      if (!body.ok) return body;
      const command = {
        ...scope(res),
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
      return respond(listReservations(deps, { ...scope(res), ...command.value }), 200, (page) =>
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
      const command = { ...scope(res), ...toEventFeedCommand(query.value) };
      return respond(readEventFeed(deps, command), 200, toEventFeedResponse);
    }),

    getTableState: endpoint(async (_req, res) =>
      respond(readTableState(deps, scope(res)), 200, toTableStateResponse),
    ),

    recoverWebhooks: endpoint(async (req, res) => {
      const body = accepted(validator.recoverRequest(req.body));
      if (!body.ok) return body;
      const command = { locationId: at(res), from: toRecoverFrom(body.value) };
      return respond(recoverWebhooks(deps, command), 202, toRecoverResponse);
    }),

    redeliverWebhook: deliveryLog.redeliver,

    // The deliveries to the caller's own endpoints at the location (all of them, or one).
    listWebhookDeliveries: endpoint(async (req, res) => {
      const query = accepted(validator.deliveryListQuery(req.query));
      if (!query.ok) return query;
      const command = accepted(toDeliveryListCommand(query.value));
      if (!command.ok) return command;
      return respond(
        listWebhookDeliveries(deps, { ...endpointScope(res), ...command.value }),
        200,
        toDeliveryListResponse,
      );
    }),

    createWebhookEndpoint: endpoint(async (req, res) => {
      const body = accepted(validator.webhookEndpointCreateRequest(req.body));
      if (!body.ok) return body;
      const command = { ...endpointScope(res), ...toWebhookEndpointCreation(body.value) };
      return respond(createWebhookEndpoint(deps, command), 201, toScopedWebhookEndpointResponse);
    }),

    listWebhookEndpoints: endpoint(async (_req, res) =>
      respond(listWebhookEndpoints(deps, endpointScope(res)), 200, (endpoints) => ({
        endpoints: endpoints.map(toScopedWebhookEndpointResponse),
      })),
    ),

    getScopedWebhookEndpoint: endpoint(async (req, res) =>
      respond(
        getScopedWebhookEndpoint(deps, { ...endpointScope(res), id: param(req, 'endpointId') }),
        200,
        toScopedWebhookEndpointResponse,
      ),
    ),

    patchWebhookEndpoint: endpoint(async (req, res) => {
      const body = accepted(validator.webhookEndpointPatchRequest(req.body));
      if (!body.ok) return body;
      const command = {
        ...endpointScope(res),
        id: param(req, 'endpointId'),
        change: toWebhookEndpointChange(body.value),
      };
      return respond(changeWebhookEndpoint(deps, command), 200, toScopedWebhookEndpointResponse);
    }),

    deleteScopedWebhookEndpoint: endpoint(async (req, res) =>
      respond(
        deleteScopedWebhookEndpoint(deps, { ...endpointScope(res), id: param(req, 'endpointId') }),
        204,
        () => undefined,
      ),
    ),

    rotateScopedWebhookSecret: endpoint(async (req, res) =>
      respond(
        rotateScopedWebhookSecret(deps, { ...endpointScope(res), id: param(req, 'endpointId') }),
        200,
        toScopedWebhookEndpointResponse,
      ),
    ),

    recoverScopedWebhooks: endpoint(async (req, res) => {
      const body = accepted(validator.recoverRequest(req.body));
      if (!body.ok) return body;
      const command = {
        ...endpointScope(res),
        id: param(req, 'endpointId'),
        from: toRecoverFrom(body.value),
      };
      return respond(recoverScopedWebhooks(deps, command), 202, toRecoverResponse);
    }),

    testScopedWebhookEndpoint: endpoint(async (req, res) =>
      respond(
        sendScopedTestWebhook(deps, { ...endpointScope(res), id: param(req, 'endpointId') }),
        200,
        (result) => ({
          ...result,
        }),
      ),
    ),
  };
  for (const id of ENDPOINT_OPERATIONS) handlers[id] = guarded(ownEndpoint, handlers[id]!);
  return handlers;
}

/** The operations on the location's webhook endpoint and its deliveries: its own provider's. */
const ENDPOINT_OPERATIONS = [
  'getWebhookEndpoint',
  'putWebhookEndpoint',
  'deleteWebhookEndpoint',
  'rotateWebhookSecret',
  'testWebhookEndpoint',
  'redeliverWebhook',
  'recoverWebhooks',
];

/** Handlers of the provider operations that act on no one location. */
export function providerWideHandlers(deps: Deps, validator: ContractValidator): RouteHandlers {
  return {
    listConnections: endpoint(async (req, res) => {
      const query = accepted(validator.connectionListQuery(req.query));
      if (!query.ok) return query;
      const command = accepted(toConnectionListCommand(query.value));
      if (!command.ok) return command;
      const providerId = callerOf(res.locals).providerId;
      return respond(
        listProviderConnections(deps, { providerId, ...command.value }),
        200,
        toConnectionListResponse,
      );
    }),
  };
}
