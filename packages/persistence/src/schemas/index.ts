import { apiKeySchema } from './api-key.schema';
import { connectionSchema } from './connection.schema';
import { diningTableSchema } from './dining-table.schema';
import { floorPlanVersionSchema } from './floor-plan-version.schema';
import { floorPlanSchema } from './floor-plan.schema';
import { idempotencyKeySchema } from './idempotency-key.schema';
import { locationSchema } from './location.schema';
import { orderSchema } from './order.schema';
import { outboxEventSchema } from './outbox-event.schema';
import { providerSchema } from './provider.schema';
import { reservationSchema } from './reservation.schema';
import { roomSchema } from './room.schema';
import { webhookAttemptSchema } from './webhook-attempt.schema';
import { webhookDeliverySchema } from './webhook-delivery.schema';
import { webhookEndpointSchema } from './webhook-endpoint.schema';

export * from './columns';
export * from './api-key.schema';
export * from './connection.schema';
export * from './dining-table.schema';
export * from './floor-plan-version.schema';
export * from './floor-plan.schema';
export * from './idempotency-key.schema';
export * from './location.schema';
export * from './order.schema';
export * from './outbox-event.schema';
export * from './provider.schema';
export * from './reservation.schema';
export * from './room.schema';
export * from './webhook-attempt.schema';
export * from './webhook-delivery.schema';
export * from './webhook-endpoint.schema';

/** One EntitySchema per table of the migrations. */
export const ENTITY_SCHEMAS = [
  locationSchema,
  providerSchema,
  connectionSchema,
  apiKeySchema,
  floorPlanSchema,
  roomSchema,
  diningTableSchema,
  floorPlanVersionSchema,
  orderSchema,
  reservationSchema,
  outboxEventSchema,
  webhookEndpointSchema,
  webhookDeliverySchema,
  webhookAttemptSchema,
  idempotencyKeySchema,
];
