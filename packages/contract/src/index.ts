// Schemas: the single source of the wire format.
export { componentSchemas, QUERY_SCHEMAS, type ComponentName, type QueryName } from './schemas/components';
export { MAX_INT32, DATE_TIME_INPUT_FORMAT, DATE_TIME_INPUT_PATTERN } from './schemas/primitives';
export { ERROR_CODE_VALUES } from './schemas/error.schema';
// The enumerations are the domain's (one definition each); these names stay for importers.
export {
  RESERVATION_STATUSES as RESERVATION_STATUS_VALUES,
  TABLE_SHAPES as TABLE_SHAPE_VALUES,
  DECORATION_KINDS as DECORATION_KIND_VALUES,
  ORDER_STATUSES as ORDER_STATUS_VALUES,
  EVENT_TYPES as EVENT_TYPE_VALUES,
  DELIVERY_STATUSES as DELIVERY_STATUS_VALUES,
  COURSES as COURSE_VALUES,
  TENDERS as TENDER_VALUES,
  SERVICE_STATUSES as SERVICE_STATUS_VALUES,
} from '@pis/domain';
export * from './wire-types';

// Validation at the edge.
export {
  createValidator,
  createAjv,
  type ContractValidator,
  type ValidatorOptions,
} from './validation/validator';
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
  toPublishPreviewResponse,
  toFloorPlanChangesResponse,
} from './mappers/floor-plan-response.mapper';
export {
  DEFAULT_CURRENCY,
  toLocationCommand,
  toLocationResponse,
  toApiKeyResponse,
  toOrderItem,
  toOrderDiscount,
  toOrderPayment,
  toCheckResponse,
  toOrderResponse,
  toOrderListResponse,
} from './mappers/backoffice.mapper';
export {
  toWebhookEndpointCommand,
  toWebhookEndpointResponse,
  toWebhookEndpointCreation,
  toWebhookEndpointChange,
  toScopedWebhookEndpointResponse,
  toDeliveryResponse,
  toDeliveryListResponse,
  toWebhookEventBody,
} from './mappers/webhook.mapper';
export { toErrorBody, toFailureBody } from './mappers/error.mapper';
export {
  toProviderCommand,
  toProviderResponse,
  toProviderKeyMode,
  toProviderKeyResponse,
  toProviderListCommand,
  toLocationListCommand,
  toProviderListResponse,
  toLocationListResponse,
  toConnectionResponse,
  toLocationConnectionListResponse,
  toConnectionListCommand,
  toProviderConnectionResponse,
  toConnectionListResponse,
} from './mappers/provider.mapper';
export {
  toEventFeedCommand,
  toEventFeedResponse,
  toRecoverFrom,
  toRecoverResponse,
  toTableStateResponse,
} from './mappers/event-feed.mapper';
export {
  encodeReservationCursor,
  decodeReservationCursor,
  encodeDeliveryCursor,
  decodeDeliveryCursor,
  encodeProviderCursor,
  decodeProviderCursor,
  encodeLocationCursor,
  decodeLocationCursor,
  encodeConnectionCursor,
  decodeConnectionCursor,
} from './mappers/cursor';

// The OpenAPI document and checks against it.
/** Request bodies the tests send and the document's examples are recorded from. */
export * as exampleBodies from './examples/request-bodies';
export {
  EXAMPLES,
  type Example,
  type OperationExamples,
  type RecordedExamples,
  type WebhookExample,
} from './openapi/examples';
export { buildOpenApiDocument, API_VERSION } from './openapi/build-openapi-document';
export { operations, findOperation } from './openapi/operations';
export {
  SANDBOX_PREFIX,
  SIMULATED_OPERATIONS,
  sandboxOperationId,
  sandboxOperations,
} from './openapi/sandbox-operations';
export type { OperationSpec, HttpMethod, ErrorStatus } from './openapi/operation-spec';
export { namesLocation } from './openapi/operation-spec';
export { createResponseValidator, responseValidator, type ResponseCheck } from './openapi/response-validator';
