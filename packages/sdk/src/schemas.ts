import type { components, operations, paths, webhooks } from './generated/openapi';

/** A named schema of the OpenAPI document, e.g. `Schema<'Reservation'>`. */
export type Schema<Name extends keyof components['schemas']> = components['schemas'][Name];

/** The provider API's paths (the document also describes the operator's backoffice). */
export type ProviderPaths = {
  [Path in keyof paths as Path extends `/api/provider/${string}` ? Path : never]: paths[Path];
};

/** Every `error.code` the document lists. */
export type ErrorCode = Schema<'ErrorEnvelope'>['error']['code'];

/** The query parameters of an operation, e.g. `QueryOf<'listReservations'>`. */
export type QueryOf<Id extends keyof operations> = NonNullable<operations[Id]['parameters']['query']>;

type JsonBody<Operation> = Operation extends { requestBody: { content: { 'application/json': infer Body } } }
  ? Body
  : never;

/** Every webhook body the document's `webhooks` section describes, by event type. */
export type AnyWebhookEvent = {
  [Type in keyof webhooks]: JsonBody<webhooks[Type]['post']>;
}[keyof webhooks];
/** `connection.granted` / `connection.revoked`: sent to provider-scope endpoints only, with no sequence. */
export type ConnectionWebhookEvent = Extract<
  AnyWebhookEvent,
  { type: 'connection.granted' | 'connection.revoked' }
>;
/** A webhook body a location's endpoint receives (a location's events and the test event). */
export type WebhookEvent = Exclude<AnyWebhookEvent, ConnectionWebhookEvent>;
/** A webhook body a provider-scope endpoint receives: a location's events, the test event and the connection events. */
export type ProviderScopeWebhookEvent = AnyWebhookEvent;
export type WebhookEventType = AnyWebhookEvent['type'];
export type WebhookEventOf<Type extends WebhookEventType> = Extract<AnyWebhookEvent, { type: Type }>;

export type Reservation = Schema<'Reservation'>;
export type ReservationRequest = Schema<'ReservationRequest'>;
export type ReservationWriteResponse = Schema<'ReservationWriteResponse'>;
export type ReservationListResponse = Schema<'ReservationListResponse'>;
export type FloorPlanImportRequest = Schema<'FloorPlanImportRequest'>;
export type ImportResult = Schema<'ImportResult'>;
export type PublishedFloorPlan = Schema<'PublishedFloorPlan'>;
export type WebhookEndpointRequest = Schema<'WebhookEndpointRequest'>;
export type WebhookEndpoint = Schema<'WebhookEndpoint'>;
export type DeliveryListResponse = Schema<'DeliveryListResponse'>;
export type RedeliverResponse = Schema<'RedeliverResponse'>;
export type WebhookTestResult = Schema<'WebhookTestResult'>;
export type Order = Schema<'Order'>;
export type EventFeedResponse = Schema<'EventFeedResponse'>;
/** A feed entry: the body every delivery of the event carries, with the event's id (their `webhook-id`). */
export type FeedEvent = Schema<'FeedEvent'>;
export type TableStateResponse = Schema<'TableStateResponse'>;
export type RecoverRequest = Schema<'RecoverRequest'>;
export type RecoverResponse = Schema<'RecoverResponse'>;
export type OrderCreateRequest = Schema<'OrderCreateRequest'>;
export type OrderItemRequest = Schema<'OrderItemRequest'>;
export type OrderMoveRequest = Schema<'OrderMoveRequest'>;
export type OrderListResponse = Schema<'OrderListResponse'>;
export type PublishResponse = Schema<'PublishResponse'>;
export type OccupiedBy = Schema<'OccupiedBy'>;
export type ValidationDetail = Schema<'ValidationDetail'>;
export type ProviderConnection = Schema<'ProviderConnection'>;
export type ConnectionListResponse = Schema<'ConnectionListResponse'>;
export type ScopedWebhookEndpoint = Schema<'ScopedWebhookEndpoint'>;
export type ScopedWebhookEndpointList = Schema<'ScopedWebhookEndpointList'>;
export type WebhookEndpointCreateRequest = Schema<'WebhookEndpointCreateRequest'>;
export type WebhookEndpointPatchRequest = Schema<'WebhookEndpointPatchRequest'>;
