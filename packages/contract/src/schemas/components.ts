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
  publishResponseSchema,
  publishedFloorPlanSchema,
  publishedTableSchema,
  tablePatchRequestSchema,
  workingPlanSchema,
  workingTableSchema,
} from './floor-plan.schema';
import {
  orderCreateRequestSchema,
  orderItemRequestSchema,
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
  webhookEndpointRequestSchema,
  webhookEndpointResponseSchema,
} from './webhook-endpoint.schema';
import {
  floorplanPublishedEventSchema,
  tableFreedEventSchema,
  tableOccupiedEventSchema,
  tableSpendUpdatedEventSchema,
} from './webhook-event.schema';

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
  TablePatchRequest: tablePatchRequestSchema,

  WebhookEndpointRequest: webhookEndpointRequestSchema,
  WebhookEndpoint: webhookEndpointResponseSchema,
  DeliveryListQuery: deliveryListQuerySchema,
  DeliveryListResponse: deliveryListResponseSchema,
  Delivery: deliveryResponseSchema,
  DeliveryAttempt: deliveryAttemptSchema,
  RedeliverResponse: redeliverResponseSchema,
  FloorplanPublishedEvent: floorplanPublishedEventSchema,
  TableOccupiedEvent: tableOccupiedEventSchema,
  TableFreedEvent: tableFreedEventSchema,
  TableSpendUpdatedEvent: tableSpendUpdatedEventSchema,

  LocationCreateRequest: locationCreateRequestSchema,
  Location: locationResponseSchema,
  ApiKey: apiKeyResponseSchema,
  OrderCreateRequest: orderCreateRequestSchema,
  OrderItemRequest: orderItemRequestSchema,
  OrderMoveRequest: orderMoveRequestSchema,
  Order: orderResponseSchema,
  OrderListQuery: orderListQuerySchema,
  OrderListResponse: orderListResponseSchema,

  ErrorEnvelope: errorEnvelopeSchema,
  OccupiedBy: occupiedBySchema,
  ValidationDetail: validationDetailSchema,
} as const;

export type ComponentName = keyof typeof componentSchemas;

/** Query schemas are published as parameters, not as components. */
export const QUERY_SCHEMAS = ['ReservationListQuery', 'DeliveryListQuery', 'OrderListQuery'] as const;
export type QueryName = (typeof QUERY_SCHEMAS)[number];
