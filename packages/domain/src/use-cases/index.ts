export { createReservation } from './reservations/create-reservation';
export { updateReservation } from './reservations/update-reservation';
export { listReservations, MAX_WINDOW_MICROS } from './reservations/list-reservations';
export { importFloorPlan } from './floorplan/import-floor-plan';
export { publishFloorPlan } from './floorplan/publish-floor-plan';
export { editTable } from './floorplan/edit-table';
export { getPublishedFloorPlan, getWorkingPlan } from './floorplan/read-floor-plan';
export {
  previewFloorPlanPublish,
  type PreviewFloorPlanPublish,
  type PublishPreview,
} from './floorplan/preview-publish';
export { openWalkInOrder } from './orders/open-walk-in-order';
export {
  addOrderDiscount,
  addOrderItem,
  addOrderPayment,
  changeOrderCovers,
  finishOrderAs,
  moveOrderToTables,
  setOrderServiceStatus,
  voidOrderItem,
  type AddOrderDiscount,
  type AddOrderItem,
  type AddOrderPayment,
  type ChangeOrderCovers,
  type FinishOrderAs,
  type MoveOrderToTables,
  type SetOrderServiceStatus,
  type VoidOrderItem,
} from './orders/till-commands';
export { listOrders } from './orders/list-orders';
export { authenticate, createLocation, issueApiKey, revokeApiKey } from './access/locations-and-keys';
export {
  authenticateKey,
  resolveLocation,
  resolveEndpointScope,
  type ActingLocation,
  type AuthenticateKey,
  type Credential,
  type ResolveLocation,
} from './access/credentials';
export {
  createProvider,
  getProvider,
  issueProviderKey,
  listProviders,
  revokeProviderKey,
  type CreateProvider,
  type GetProvider,
  type IssueProviderKey,
  type ListProviders,
  type RevokeProviderKey,
} from './access/providers';
export {
  grantConnection,
  listLocationConnections,
  listLocations,
  listProviderConnections,
  revokeConnection,
  type GrantConnection,
  type ListLocationConnections,
  type ListLocations,
  type ListProviderConnections,
  type RevokeConnection,
} from './access/connections';
export {
  deleteWebhookEndpoint,
  getWebhookEndpoint,
  listWebhookDeliveries,
  redeliverWebhook,
  registerWebhookEndpoint,
  rotateWebhookSecret,
} from './webhooks/webhook-endpoint-commands';
export { listLocationWebhookDeliveries, redeliverLocationWebhook } from './webhooks/operator-deliveries';
export { sendTestWebhook, type SendTestWebhook } from './webhooks/send-test-webhook';
export {
  changeWebhookEndpoint,
  createWebhookEndpoint,
  deleteScopedWebhookEndpoint,
  getScopedWebhookEndpoint,
  listWebhookEndpoints,
  rotateScopedWebhookSecret,
  sendScopedTestWebhook,
  type ChangeWebhookEndpoint,
  type CreateWebhookEndpoint,
  type DeleteScopedWebhookEndpoint,
  type GetScopedWebhookEndpoint,
  type ListWebhookEndpoints,
  type RotateScopedWebhookSecret,
  type SendScopedTestWebhook,
} from './webhooks/webhook-endpoints';
export { readEventFeed, type EventFeedPage, type ReadEventFeed } from './events/event-feed';
export { readTableState, type ReadTableState } from './orders/read-table-state';
export {
  recoverWebhooks,
  recoverScopedWebhooks,
  type RecoverScopedWebhooks,
  type RecoverWebhooks,
} from './webhooks/recover-webhooks';
export type { CreateReservation } from './reservations/create-reservation';
export type { UpdateReservation } from './reservations/update-reservation';
export type { ListReservations } from './reservations/list-reservations';
export type { ImportFloorPlan } from './floorplan/import-floor-plan';
export type { PublishFloorPlan } from './floorplan/publish-floor-plan';
export type { EditTable } from './floorplan/edit-table';
export type { GetPublishedFloorPlan, GetWorkingPlan } from './floorplan/read-floor-plan';
export type { OpenWalkInOrder } from './orders/open-walk-in-order';
export type { ListOrders } from './orders/list-orders';
export type { Authenticate, CreateLocation, IssueApiKey, RevokeApiKey } from './access/locations-and-keys';
export type {
  DeleteWebhookEndpoint,
  GetWebhookEndpoint,
  ListWebhookDeliveries,
  RedeliverWebhook,
  RegisterWebhookEndpoint,
  RotateWebhookSecret,
} from './webhooks/webhook-endpoint-commands';
