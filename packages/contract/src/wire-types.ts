import type { FromSchema } from 'json-schema-to-ts';
import type { componentSchemas } from './schemas/components';

type Schemas = typeof componentSchemas;

/** A request as it arrives: defaulted properties may be absent (the mappers fill them). */
export type WireRequest<K extends keyof Schemas> = FromSchema<
  Schemas[K],
  { keepDefaultedPropertiesOptional: true }
>;
/** A response (or webhook body): every property present. */
export type WireResponse<K extends keyof Schemas> = FromSchema<Schemas[K]>;

export type ReservationRequest = WireRequest<'ReservationRequest'>;
export type ReservationResponse = WireResponse<'Reservation'>;
export type GuestResponse = WireResponse<'Guest'>;
export type PrepaymentResponse = WireResponse<'Prepayment'>;
export type ReservationWriteResponse = WireResponse<'ReservationWriteResponse'>;
export type ReservationListQuery = WireRequest<'ReservationListQuery'>;
export type ReservationListResponse = WireResponse<'ReservationListResponse'>;

export type FloorPlanImportRequest = WireRequest<'FloorPlanImportRequest'>;
export type ImportResultResponse = WireResponse<'ImportResult'>;
export type PublishedFloorPlanResponse = WireResponse<'PublishedFloorPlan'>;
export type WorkingPlanResponse = WireResponse<'WorkingPlan'>;
export type WorkingTableResponse = WireResponse<'WorkingTable'>;
export type PublishResponse = WireResponse<'PublishResponse'>;
export type PublishPreviewResponse = WireResponse<'PublishPreview'>;
export type FloorPlanChangesResponse = WireResponse<'FloorPlanChanges'>;
export type TablePatchRequest = WireRequest<'TablePatchRequest'>;

export type WebhookEndpointRequest = WireRequest<'WebhookEndpointRequest'>;
export type WebhookEndpointResponse = WireResponse<'WebhookEndpoint'>;
export type WebhookEndpointCreateRequest = WireRequest<'WebhookEndpointCreateRequest'>;
export type WebhookEndpointPatchRequest = WireRequest<'WebhookEndpointPatchRequest'>;
export type ScopedWebhookEndpointResponse = WireResponse<'ScopedWebhookEndpoint'>;
export type DeliveryListQuery = WireRequest<'DeliveryListQuery'>;
export type DeliveryListResponse = WireResponse<'DeliveryListResponse'>;
export type DeliveryResponse = WireResponse<'Delivery'>;
export type RedeliverResponse = WireResponse<'RedeliverResponse'>;
export type WebhookTestResultResponse = WireResponse<'WebhookTestResult'>;
export type WebhookTestEventBody = WireResponse<'WebhookTestEvent'>;
export type WebhookEventBody =
  LocationWebhookEventBody | WireResponse<'ConnectionGrantedEvent'> | WireResponse<'ConnectionRevokedEvent'>;
/** The body of a location's event: with its locationEventSequence. */
export type LocationWebhookEventBody =
  | WireResponse<'FloorplanPublishedEvent'>
  | WireResponse<'TableOccupiedEvent'>
  | WireResponse<'TableFreedEvent'>
  | WireResponse<'TableSpendUpdatedEvent'>
  | WireResponse<'TableStatusChangedEvent'>
  | WireResponse<'OrderClosedEvent'>;

export type EventFeedQuery = WireRequest<'EventFeedQuery'>;
export type EventFeedResponse = WireResponse<'EventFeedResponse'>;
export type TableStateResponse = WireResponse<'TableStateResponse'>;
export type RecoverRequest = WireRequest<'RecoverRequest'>;
export type RecoverResponse = WireResponse<'RecoverResponse'>;

export type LocationCreateRequest = WireRequest<'LocationCreateRequest'>;
export type LocationResponse = WireResponse<'Location'>;
export type ApiKeyResponse = WireResponse<'ApiKey'>;
export type OrderCreateRequest = WireRequest<'OrderCreateRequest'>;
export type OrderItemRequest = WireRequest<'OrderItemRequest'>;
export type OrderMoveRequest = WireRequest<'OrderMoveRequest'>;
export type OrderDiscountRequest = WireRequest<'OrderDiscountRequest'>;
export type OrderPaymentRequest = WireRequest<'OrderPaymentRequest'>;
export type OrderServiceStatusRequest = WireRequest<'OrderServiceStatusRequest'>;
export type OrderResponse = WireResponse<'Order'>;
export type CheckResponse = WireResponse<'Check'>;
export type OrderListQuery = WireRequest<'OrderListQuery'>;
export type OrderListResponse = WireResponse<'OrderListResponse'>;

export type ProviderCreateRequest = WireRequest<'ProviderCreateRequest'>;
export type ProviderResponse = WireResponse<'Provider'>;
export type PageQuery = WireRequest<'PageQuery'>;
export type ProviderListResponse = WireResponse<'ProviderListResponse'>;
export type LocationListResponse = WireResponse<'LocationListResponse'>;
export type ProviderKeyRequest = WireRequest<'ProviderKeyRequest'>;
export type ProviderKeyResponse = WireResponse<'ProviderApiKey'>;
export type ConnectionResponse = WireResponse<'Connection'>;
export type LocationConnectionListResponse = WireResponse<'LocationConnectionListResponse'>;
export type ProviderConnectionResponse = WireResponse<'ProviderConnection'>;
export type ConnectionListQuery = WireRequest<'ConnectionListQuery'>;
export type ConnectionListResponse = WireResponse<'ConnectionListResponse'>;

export type ErrorEnvelope = WireResponse<'ErrorEnvelope'>;
export type WireErrorCode = ErrorEnvelope['error']['code'];
