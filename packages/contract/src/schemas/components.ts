import {
  apiKeyResponseSchema,
  locationCreateRequestSchema,
  locationResponseSchema,
} from './backoffice.schema';
import { errorEnvelopeSchema, occupiedBySchema, validationDetailSchema } from './error.schema';
import {
  floorPlanImportRequestSchema,
  importDecorationSchema,
  importResultSchema,
  importRoomSchema,
  importTableSchema,
} from './floor-plan-import.schema';
import {
  decorationSchema,
  floorPlanChangesSchema,
  publishPreviewSchema,
  publishResponseSchema,
  publishedFloorPlanSchema,
  publishedTableSchema,
  tablePatchRequestSchema,
  workingPlanSchema,
  workingTableSchema,
} from './floor-plan.schema';
import {
  checkDiscountSchema,
  checkItemSchema,
  checkPaymentSchema,
  checkSchema,
  checkTotalsSchema,
  orderCreateRequestSchema,
  orderDiscountRequestSchema,
  orderItemRequestSchema,
  orderPaymentRequestSchema,
  orderServiceStatusRequestSchema,
  orderListQuerySchema,
  orderListResponseSchema,
  orderMoveRequestSchema,
  orderResponseSchema,
} from './order.schema';
import { reservationListQuerySchema, reservationListResponseSchema } from './reservation-list.schema';
import {
  guestRequestSchema,
  guestResponseSchema,
  imprintRequestSchema,
  imprintResponseSchema,
  prepaymentItemRequestSchema,
  prepaymentItemResponseSchema,
  prepaymentRequestSchema,
  prepaymentResponseSchema,
  recentVisitRequestSchema,
  recentVisitResponseSchema,
  reservationRequestSchema,
  reservationResponseSchema,
  reservationWriteResponseSchema,
} from './reservation.schema';
import {
  deliveryAttemptSchema,
  deliveryListQuerySchema,
  deliveryListResponseSchema,
  deliveryResponseSchema,
  redeliverResponseSchema,
  webhookTestResultSchema,
  webhookEndpointRequestSchema,
  webhookEndpointResponseSchema,
} from './webhook-endpoint.schema';
import {
  floorplanPublishedEventSchema,
  orderClosedEventSchema,
  tableFreedEventSchema,
  tableOccupiedEventSchema,
  tableSpendUpdatedEventSchema,
  tableStatusChangedEventSchema,
  webhookTestEventSchema,
} from './webhook-event.schema';
import {
  eventFeedQuerySchema,
  eventFeedResponseSchema,
  feedEventSchema,
  recoverRequestSchema,
  recoverResponseSchema,
  tableStateOrderSchema,
  tableStateResponseSchema,
  tableStateSchema,
} from './event-feed.schema';
import { healthResponseSchema, readinessResponseSchema } from './health.schema';
import {
  connectionListQuerySchema,
  connectionListResponseSchema,
  connectionResponseSchema,
  locationConnectionListResponseSchema,
  locationListResponseSchema,
  pageQuerySchema,
  providerConnectionSchema,
  providerCreateRequestSchema,
  providerKeyRequestSchema,
  providerKeyResponseSchema,
  providerListResponseSchema,
  providerResponseSchema,
} from './provider.schema';

/**
 * Every named schema of the contract. ajv compiles these objects, the OpenAPI document
 * publishes them under `components.schemas` (nested ones become `$ref`s by identity) and
 * the wire types are derived from them: one source for all three.
 */
export const componentSchemas = {
  ReservationRequest: reservationRequestSchema,
  GuestRequest: guestRequestSchema,
  RecentVisitRequest: recentVisitRequestSchema,
  PrepaymentRequest: prepaymentRequestSchema,
  PrepaymentItemRequest: prepaymentItemRequestSchema,
  ImprintRequest: imprintRequestSchema,
  Reservation: reservationResponseSchema,
  Guest: guestResponseSchema,
  RecentVisit: recentVisitResponseSchema,
  Prepayment: prepaymentResponseSchema,
  PrepaymentItem: prepaymentItemResponseSchema,
  Imprint: imprintResponseSchema,
  ReservationWriteResponse: reservationWriteResponseSchema,
  ReservationListQuery: reservationListQuerySchema,
  ReservationListResponse: reservationListResponseSchema,

  FloorPlanImportRequest: floorPlanImportRequestSchema,
  ImportRoom: importRoomSchema,
  ImportTable: importTableSchema,
  ImportDecoration: importDecorationSchema,
  ImportResult: importResultSchema,
  PublishedFloorPlan: publishedFloorPlanSchema,
  PublishedTable: publishedTableSchema,
  WorkingPlan: workingPlanSchema,
  WorkingTable: workingTableSchema,
  Decoration: decorationSchema,
  PublishResponse: publishResponseSchema,
  PublishPreview: publishPreviewSchema,
  FloorPlanChanges: floorPlanChangesSchema,
  TablePatchRequest: tablePatchRequestSchema,

  WebhookEndpointRequest: webhookEndpointRequestSchema,
  WebhookEndpoint: webhookEndpointResponseSchema,
  DeliveryListQuery: deliveryListQuerySchema,
  DeliveryListResponse: deliveryListResponseSchema,
  Delivery: deliveryResponseSchema,
  DeliveryAttempt: deliveryAttemptSchema,
  RedeliverResponse: redeliverResponseSchema,
  WebhookTestResult: webhookTestResultSchema,
  FloorplanPublishedEvent: floorplanPublishedEventSchema,
  TableOccupiedEvent: tableOccupiedEventSchema,
  TableFreedEvent: tableFreedEventSchema,
  TableSpendUpdatedEvent: tableSpendUpdatedEventSchema,
  TableStatusChangedEvent: tableStatusChangedEventSchema,
  OrderClosedEvent: orderClosedEventSchema,
  WebhookTestEvent: webhookTestEventSchema,
  EventFeedQuery: eventFeedQuerySchema,
  EventFeedResponse: eventFeedResponseSchema,
  FeedEvent: feedEventSchema,
  TableStateResponse: tableStateResponseSchema,
  TableState: tableStateSchema,
  TableStateOrder: tableStateOrderSchema,
  RecoverRequest: recoverRequestSchema,
  RecoverResponse: recoverResponseSchema,

  LocationCreateRequest: locationCreateRequestSchema,
  Location: locationResponseSchema,
  ApiKey: apiKeyResponseSchema,
  OrderCreateRequest: orderCreateRequestSchema,
  OrderItemRequest: orderItemRequestSchema,
  OrderMoveRequest: orderMoveRequestSchema,
  OrderDiscountRequest: orderDiscountRequestSchema,
  OrderPaymentRequest: orderPaymentRequestSchema,
  OrderServiceStatusRequest: orderServiceStatusRequestSchema,
  Order: orderResponseSchema,
  Check: checkSchema,
  CheckItem: checkItemSchema,
  CheckDiscount: checkDiscountSchema,
  CheckPayment: checkPaymentSchema,
  CheckTotals: checkTotalsSchema,
  OrderListQuery: orderListQuerySchema,
  OrderListResponse: orderListResponseSchema,

  ProviderCreateRequest: providerCreateRequestSchema,
  Provider: providerResponseSchema,
  PageQuery: pageQuerySchema,
  ProviderListResponse: providerListResponseSchema,
  LocationListResponse: locationListResponseSchema,
  ProviderKeyRequest: providerKeyRequestSchema,
  ProviderApiKey: providerKeyResponseSchema,
  Connection: connectionResponseSchema,
  LocationConnectionListResponse: locationConnectionListResponseSchema,
  ProviderConnection: providerConnectionSchema,
  ConnectionListQuery: connectionListQuerySchema,
  ConnectionListResponse: connectionListResponseSchema,

  HealthResponse: healthResponseSchema,
  ReadinessResponse: readinessResponseSchema,

  ErrorEnvelope: errorEnvelopeSchema,
  OccupiedBy: occupiedBySchema,
  ValidationDetail: validationDetailSchema,
} as const;

export type ComponentName = keyof typeof componentSchemas;

/** Query schemas are published as parameters, not as components. */
export const QUERY_SCHEMAS = [
  'ReservationListQuery',
  'DeliveryListQuery',
  'OrderListQuery',
  'EventFeedQuery',
  'PageQuery',
  'ConnectionListQuery',
] as const;
export type QueryName = (typeof QUERY_SCHEMAS)[number];
