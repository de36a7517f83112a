import { authErrors, bodyErrors, type OperationSpec } from './operation-spec';

const V1 = '/api/provider/v1';
const provider = { security: 'providerKey', tag: 'provider' } as const;
const webhooks = { security: 'providerKey', tag: 'webhooks' } as const;
const recovery = { security: 'providerKey', tag: 'recovery' } as const;
/**
 * The location's webhook endpoint and its deliveries belong to the location's own provider
 * (its location keys); a provider key acting for the location has none there.
 */
const NO_ENDPOINT =
  'not_found: no endpoint is registered, or the key is a provider key (the location endpoint is managed with a location key)';
const NOT_IN_SCOPE = "not_found: no such endpoint among the key's provider's endpoints at this location";
const ENDPOINT_ID = { name: 'endpointId', description: 'the id of a webhook endpoint' };
const externalIdParam = {
  name: 'externalId',
  description: "the provider's reservation id (1-128 characters)",
};

export const providerOperations: OperationSpec[] = [
  {
    ...provider,
    operationId: 'createReservation',
    method: 'post',
    path: `${V1}/reservations`,
    summary: 'Create a reservation keyed by its externalId',
    body: 'ReservationRequest',
    success: { status: 201, description: 'created; outcome is applied', schema: 'ReservationWriteResponse' },
    errors: {
      ...authErrors(true),
      ...bodyErrors(
        'validation_failed (unknown property, limits, seated without tables, duplicate tableIds) or unknown_table_id',
      ),
      409: 'duplicate_reservation (the externalId exists), floorplan_not_published (tableIds before the first publish) or table_occupied',
    },
  },
  {
    ...provider,
    operationId: 'listReservations',
    method: 'get',
    path: `${V1}/reservations`,
    summary: 'Reservations whose startsAt lies in [from, to), by startsAt then id',
    description:
      'A reconciliation and debugging surface; cancelled reservations are listed too. The window is at most 31 days.',
    query: 'ReservationListQuery',
    success: { status: 200, description: 'one page of the window', schema: 'ReservationListResponse' },
    errors: {
      ...authErrors(true),
      422: 'validation_failed: a missing or invalid parameter, from >= to, a window over 31 days or a malformed cursor',
    },
  },
  {
    ...provider,
    operationId: 'updateReservation',
    method: 'put',
    path: `${V1}/reservations/{externalId}`,
    summary: 'Full-body update of a reservation; last write wins on updatedAt',
    description:
      'A write whose updatedAt is older than or equal to the stored one is stale: 200, nothing applied, the stored reservation returned.',
    pathParams: [externalIdParam],
    body: 'ReservationRequest',
    success: { status: 200, description: 'applied or stale', schema: 'ReservationWriteResponse' },
    errors: {
      ...authErrors(true),
      ...bodyErrors(
        'validation_failed (also a body externalId different from the path one) or unknown_table_id',
      ),
      404: 'unknown_reservation: create it with POST first',
      409: 'floorplan_not_published (tableIds before the first publish) or table_occupied (occupiedBy names the holder)',
    },
  },
  {
    ...provider,
    operationId: 'getFloorPlan',
    method: 'get',
    path: `${V1}/floorplan`,
    summary: 'The latest published floor plan',
    success: { status: 200, description: 'the latest published version', schema: 'PublishedFloorPlan' },
    errors: { ...authErrors(true), 404: 'floorplan_not_published: nothing has been published yet' },
  },
  {
    ...provider,
    operationId: 'importFloorPlan',
    method: 'post',
    path: `${V1}/floorplan/import`,
    summary: 'One-shot import of the floor plan as a draft; returns the table-id mapping',
    body: 'FloorPlanImportRequest',
    success: { status: 201, description: 'the draft was created', schema: 'ImportResult' },
    errors: {
      ...authErrors(true),
      ...bodyErrors(
        'validation_failed: limits, duplicate externalIds, minCovers above maxCovers, a table centre outside its canvas',
      ),
      409: 'draft_not_empty: rooms exist and replaceDraft is not true, or the plan has been published (import is closed for good)',
    },
  },
  {
    ...webhooks,
    operationId: 'getWebhookEndpoint',
    method: 'get',
    path: `${V1}/webhook-endpoint`,
    summary: "The location's webhook endpoint with its current secret",
    success: { status: 200, description: 'the endpoint', schema: 'WebhookEndpoint' },
    errors: { ...authErrors(true), 404: NO_ENDPOINT },
  },
  {
    ...webhooks,
    operationId: 'putWebhookEndpoint',
    method: 'put',
    path: `${V1}/webhook-endpoint`,
    summary: 'Register or replace the webhook endpoint (one per location)',
    description:
      'Replacing keeps the secrets (receivers keep verifying); the first registration creates one.',
    body: 'WebhookEndpointRequest',
    success: { status: 200, description: 'the endpoint as registered', schema: 'WebhookEndpoint' },
    errors: {
      ...authErrors(true),
      ...bodyErrors(
        'validation_failed: not https, or the host resolves to a loopback, private, link-local or metadata address',
      ),
      404: 'not_found: the key is a provider key (the location endpoint is managed with a location key)',
    },
  },
  {
    ...webhooks,
    operationId: 'deleteWebhookEndpoint',
    method: 'delete',
    path: `${V1}/webhook-endpoint`,
    summary: 'Remove the webhook endpoint; nothing is delivered from then on',
    success: { status: 204, description: 'removed', schema: null },
    errors: { ...authErrors(true), 404: NO_ENDPOINT },
  },
  {
    ...webhooks,
    operationId: 'rotateWebhookSecret',
    method: 'post',
    path: `${V1}/webhook-endpoint/rotate-secret`,
    summary: 'Issue a new signing secret; the previous one keeps signing beside it for 24 h',
    success: { status: 200, description: 'the endpoint with its new secret', schema: 'WebhookEndpoint' },
    errors: { ...authErrors(true), 404: NO_ENDPOINT },
  },
  {
    ...webhooks,
    operationId: 'testWebhookEndpoint',
    method: 'post',
    path: `${V1}/webhook-endpoint/test`,
    summary: 'Send one signed webhook.test event to the endpoint now and answer what the receiver did',
    description:
      'One attempt, made while the request waits, signed and sent exactly as every delivery (same secrets, ' +
      'headers, timeout and URL rules) with the body {type: "webhook.test", timestamp, data: {}}. It is not ' +
      'an event of the location: no locationEventSequence, no delivery record, never retried.',
    success: { status: 200, description: 'the attempt, delivered or not', schema: 'WebhookTestResult' },
    errors: { ...authErrors(true), 404: NO_ENDPOINT },
  },
  {
    ...webhooks,
    operationId: 'createWebhookEndpoint',
    providerScope: true,
    method: 'post',
    path: `${V1}/webhook-endpoints`,
    summary:
      "Add a webhook endpoint of the key's provider at the location, or provider-wide (at most 10 per scope)",
    description:
      'Each endpoint has its own secret, retries, delivery log, health and status, and receives the ' +
      "location's events of the types it names (eventTypes; default every type), as its provider may see them: " +
      "another provider's reservation id reads null. A location key's endpoints belong to the location's own " +
      'provider, and the endpoint of PUT /webhook-endpoint is one of them. A provider key without Location-Id ' +
      'creates a provider-scope endpoint (scope "provider", locationId null): it receives the events of every ' +
      'location the provider is connected to (those committed while connected; data.locationId says whose), and ' +
      'connection.granted / connection.revoked.',
    body: 'WebhookEndpointCreateRequest',
    success: { status: 201, description: 'the endpoint with its secret', schema: 'ScopedWebhookEndpoint' },
    errors: {
      ...authErrors(true),
      ...bodyErrors(
        'validation_failed: an unknown event type, a connection event type for a location-scope endpoint, not https, or the host resolves to a loopback, private, link-local or metadata address',
      ),
      409: 'endpoint_limit: the scope (the provider at this location, or the provider as a whole) already has 10 endpoints',
    },
  },
  {
    ...webhooks,
    operationId: 'listWebhookEndpoints',
    providerScope: true,
    method: 'get',
    path: `${V1}/webhook-endpoints`,
    summary:
      "The key's provider's webhook endpoints at the location (without Location-Id: its provider-scope ones), oldest first",
    success: { status: 200, description: 'every endpoint of the scope', schema: 'ScopedWebhookEndpointList' },
    errors: authErrors(true),
  },
  {
    ...webhooks,
    operationId: 'getScopedWebhookEndpoint',
    providerScope: true,
    method: 'get',
    path: `${V1}/webhook-endpoints/{endpointId}`,
    summary: 'One webhook endpoint with its current secret',
    pathParams: [ENDPOINT_ID],
    success: { status: 200, description: 'the endpoint', schema: 'ScopedWebhookEndpoint' },
    errors: { ...authErrors(true), 404: NOT_IN_SCOPE },
  },
  {
    ...webhooks,
    operationId: 'patchWebhookEndpoint',
    providerScope: true,
    method: 'patch',
    path: `${V1}/webhook-endpoints/{endpointId}`,
    summary: 'Change the URL, event types or description; re-enables a disabled endpoint',
    description: 'What the body names changes; the secrets stay (receivers keep verifying).',
    pathParams: [ENDPOINT_ID],
    body: 'WebhookEndpointPatchRequest',
    success: { status: 200, description: 'the endpoint as changed', schema: 'ScopedWebhookEndpoint' },
    errors: {
      ...authErrors(true),
      ...bodyErrors(
        'validation_failed: an unknown event type, a connection event type for a location-scope endpoint, not https, or the host resolves to a loopback, private, link-local or metadata address',
      ),
      404: NOT_IN_SCOPE,
    },
  },
  {
    ...webhooks,
    operationId: 'deleteScopedWebhookEndpoint',
    providerScope: true,
    method: 'delete',
    path: `${V1}/webhook-endpoints/{endpointId}`,
    summary: 'Remove one webhook endpoint; nothing more is delivered to it',
    pathParams: [ENDPOINT_ID],
    success: { status: 204, description: 'removed', schema: null },
    errors: { ...authErrors(true), 404: NOT_IN_SCOPE },
  },
  {
    ...webhooks,
    operationId: 'rotateScopedWebhookSecret',
    providerScope: true,
    method: 'post',
    path: `${V1}/webhook-endpoints/{endpointId}/rotate-secret`,
    summary: 'Issue a new signing secret for one endpoint; the previous one keeps signing beside it for 24 h',
    pathParams: [ENDPOINT_ID],
    success: {
      status: 200,
      description: 'the endpoint with its new secret',
      schema: 'ScopedWebhookEndpoint',
    },
    errors: { ...authErrors(true), 404: NOT_IN_SCOPE },
  },
  {
    ...webhooks,
    operationId: 'testScopedWebhookEndpoint',
    providerScope: true,
    method: 'post',
    path: `${V1}/webhook-endpoints/{endpointId}/test`,
    summary: 'Send one signed webhook.test event to one endpoint now and answer what the receiver did',
    description: 'As POST /webhook-endpoint/test, to this endpoint with its secrets.',
    pathParams: [ENDPOINT_ID],
    success: { status: 200, description: 'the attempt, delivered or not', schema: 'WebhookTestResult' },
    errors: { ...authErrors(true), 404: NOT_IN_SCOPE },
  },
  {
    ...webhooks,
    operationId: 'listWebhookDeliveries',
    providerScope: true,
    method: 'get',
    path: `${V1}/webhook-deliveries`,
    summary: 'Delivery records, newest first',
    description:
      "The deliveries to the key's provider's endpoints at the location; endpointId narrows them to one. A provider " +
      'key without Location-Id lists the deliveries to its provider-scope endpoints, at every location.',
    query: 'DeliveryListQuery',
    success: { status: 200, description: 'one page of deliveries', schema: 'DeliveryListResponse' },
    errors: {
      ...authErrors(true),
      422: 'validation_failed: an invalid parameter or a malformed cursor',
    },
  },
  {
    ...webhooks,
    operationId: 'redeliverWebhook',
    method: 'post',
    path: `${V1}/webhook-deliveries/{deliveryId}/redeliver`,
    summary: 'Queue a delivery again; its retry schedule starts over',
    pathParams: [{ name: 'deliveryId', description: 'the id of a delivery record' }],
    success: { status: 202, description: 'queued', schema: 'RedeliverResponse' },
    errors: {
      ...authErrors(true),
      404: 'not_found: the location has no such delivery, or the key is a provider key (see the endpoint)',
    },
  },
  {
    ...recovery,
    operationId: 'listEvents',
    method: 'get',
    path: `${V1}/events`,
    summary: "The location's events after a sequence, gap-free and in order",
    description:
      'Every event of the location is kept for EVENT_RETENTION_DAYS (30 by default), whether or not an endpoint ' +
      'received it. Each entry is the body its deliveries carry, with its id (their webhook-id). The feed never ' +
      'shows a sequence while a smaller one of the location is still uncommitted: read from nextAfter page after ' +
      'page and you see every event exactly once, in order.',
    query: 'EventFeedQuery',
    success: { status: 200, description: 'one page of events', schema: 'EventFeedResponse' },
    errors: {
      ...authErrors(true),
      410: 'events_expired: events after `after` have been pruned; rebuild from GET /tables/state',
      422: 'validation_failed: after or limit not an integer in range, an unknown event type in types, an unknown parameter',
    },
  },
  {
    ...recovery,
    operationId: 'getTableState',
    method: 'get',
    path: `${V1}/tables/state`,
    summary: 'Every published table with its open order, and the sequence the state reflects',
    description:
      'Read in one snapshot: the state is exactly what the events up to asOfSequence produce, so this answer ' +
      'followed by the feed from asOfSequence rebuilds the live state.',
    success: { status: 200, description: 'the state', schema: 'TableStateResponse' },
    errors: { ...authErrors(true), 409: 'floorplan_not_published: nothing has been published yet' },
  },
  {
    ...recovery,
    operationId: 'recoverWebhooks',
    method: 'post',
    path: `${V1}/webhook-endpoint/recover`,
    summary: 'Queue every retained event after a point to the endpoint again',
    description:
      'Every retained event strictly after afterSequence (or whose timestamp is strictly after since) of a type ' +
      'the endpoint subscribes to is queued as a new delivery, in sequence order, with its original webhook-id ' +
      'and body; events raised before the endpoint existed included. Arrival may interleave as for every ' +
      'delivery: order by locationEventSequence.',
    body: 'RecoverRequest',
    success: { status: 202, description: 'queued', schema: 'RecoverResponse' },
    errors: {
      ...authErrors(true),
      ...bodyErrors(
        'validation_failed: not exactly one of afterSequence and since, afterSequence for a provider-scope endpoint, or the endpoint is disabled',
      ),
      404: NO_ENDPOINT,
      410: 'events_expired: events after that point have been pruned',
    },
  },
  {
    ...recovery,
    operationId: 'recoverScopedWebhooks',
    providerScope: true,
    method: 'post',
    path: `${V1}/webhook-endpoints/{endpointId}/recover`,
    summary: 'Queue every retained event after a point to one endpoint again',
    description:
      'As POST /webhook-endpoint/recover, for this endpoint: the retained events after the point, of the types ' +
      'it subscribes to and committed while its provider was connected to the location, queued in sequence order ' +
      'with their original webhook-id, each body as its provider may see it. A provider-scope endpoint (a provider ' +
      'key without Location-Id) recovers by since only, sequences being per location: the events of every location ' +
      'its provider was connected to when they were committed, and its connection events.',
    pathParams: [ENDPOINT_ID],
    body: 'RecoverRequest',
    success: { status: 202, description: 'queued', schema: 'RecoverResponse' },
    errors: {
      ...authErrors(true),
      ...bodyErrors(
        'validation_failed: not exactly one of afterSequence and since, afterSequence for a provider-scope endpoint, or the endpoint is disabled',
      ),
      404: NOT_IN_SCOPE,
      410: 'events_expired: events after that point have been pruned',
    },
  },
  {
    ...provider,
    operationId: 'listConnections',
    method: 'get',
    path: `${V1}/connections`,
    providerWide: true,
    summary: "The locations the key's provider is connected to, active and revoked, by grantedAt",
    description:
      'A provider key lists every location its provider was ever granted (100 a page unless limit asks for ' +
      'fewer; follow nextCursor); a location key lists its one location. Takes no Location-Id. A re-grant moves ' +
      'a connection to its new grantedAt, so a listing read while grants change may show it twice or not at all.',
    query: 'ConnectionListQuery',
    success: { status: 200, description: 'one page of connections', schema: 'ConnectionListResponse' },
    errors: { ...authErrors(true), 422: 'validation_failed: an invalid limit or a malformed cursor' },
  },
  {
    operationId: 'getOpenApiDocument',
    method: 'get',
    path: `${V1}/openapi.json`,
    tag: 'provider',
    security: 'none',
    summary: 'This document',
    success: { status: 200, description: 'the OpenAPI 3.1 document', schema: 'OpenApiDocument' },
    errors: {
      // What the server answers before any route, on this path as on every other.
      400: 'validation_failed: the request is not valid HTTP/1.1',
      500: 'internal_error',
    },
  },
];
