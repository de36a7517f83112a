export { createReservation } from './reservations/create-reservation';
export { updateReservation } from './reservations/update-reservation';
export { listReservations, MAX_WINDOW_MICROS } from './reservations/list-reservations';
export { importFloorPlan } from './floorplan/import-floor-plan';
export { publishFloorPlan } from './floorplan/publish-floor-plan';
export { editTable } from './floorplan/edit-table';
export { getPublishedFloorPlan, getWorkingPlan } from './floorplan/read-floor-plan';
export { openWalkInOrder } from './orders/open-walk-in-order';
export { addOrderItem, changeOrderCovers, finishOrderCommand, moveOrderCommand } from './orders/change-order';
export { listOrders } from './orders/list-orders';
export {
  authenticate,
  createLocation,
  displayPrefix,
  issueApiKey,
  revokeApiKey,
} from './access/locations-and-keys';
export {
  deleteWebhookEndpoint,
  getWebhookEndpoint,
  listWebhookDeliveries,
  redeliverWebhook,
  registerWebhookEndpoint,
  rotateWebhookSecret,
} from './webhooks/webhook-endpoint-commands';
