// Schemas: the single source of the wire format.
export { componentSchemas, QUERY_SCHEMAS, type ComponentName, type QueryName } from './schemas/components';
export { MAX_INT32 } from './schemas/primitives';
export { RESERVATION_STATUS_VALUES } from './schemas/reservation.schema';
export { TABLE_SHAPE_VALUES, DECORATION_KIND_VALUES } from './schemas/floor-plan-import.schema';
export { ORDER_STATUS_VALUES } from './schemas/order.schema';
export { EVENT_TYPE_VALUES, DELIVERY_STATUS_VALUES } from './schemas/webhook-endpoint.schema';
export { ERROR_CODE_VALUES } from './schemas/error.schema';
export * from './wire-types';

// Validation at the edge.
export { createValidator, createAjv, type ContractValidator } from './validation/validator';
export { valid, invalid, validationFailure, type Checked } from './validation/checked';
export { toDetails, pointerToken } from './validation/error-details';
export { coerceQuery } from './validation/query';

// Mappers between wire JSON and the domain.
export { toReservationInput } from './mappers/reservation-request.mapper';
export {
  toReservationResponse,
  toReservationWriteResponse,
  toReservationListResponse,
} from './mappers/reservation-response.mapper';
export {
  DEFAULT_LIST_LIMIT,
  toReservationListCommand,
  toDeliveryListCommand,
  toOrderListCommand,
  type ReservationListCommand,
  type DeliveryListCommand,
} from './mappers/list-query.mapper';
export { toImportInput, toTablePatch } from './mappers/floor-plan-request.mapper';
export {
  toImportResultResponse,
  toPublishedFloorPlanResponse,
  toWorkingPlanResponse,
  toTableResponse,
  toPublishResponse,
} from './mappers/floor-plan-response.mapper';
export {
  DEFAULT_CURRENCY,
  toLocationCommand,
  toLocationResponse,
  toApiKeyResponse,
  toOrderItem,
  toOrderResponse,
  toOrderListResponse,
} from './mappers/backoffice.mapper';
export {
  toWebhookEndpointCommand,
  toWebhookEndpointResponse,
  toDeliveryResponse,
  toDeliveryListResponse,
  toWebhookEventBody,
} from './mappers/webhook.mapper';
export { toErrorBody, toFailureBody } from './mappers/error.mapper';
export {
  encodeReservationCursor,
  decodeReservationCursor,
  encodeDeliveryCursor,
  decodeDeliveryCursor,
} from './mappers/cursor';

// The OpenAPI document and checks against it.
export { buildOpenApiDocument, API_VERSION } from './openapi/build-openapi-document';
export { operations, findOperation } from './openapi/operations';
export type { OperationSpec, HttpMethod, ErrorStatus } from './openapi/operation-spec';
export { createResponseValidator, responseValidator, type ResponseCheck } from './openapi/response-validator';
