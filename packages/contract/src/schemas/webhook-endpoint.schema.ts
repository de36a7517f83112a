import { cursorSchema } from './reservation-list.schema';
import {
  atLeast,
  closedObject,
  utcDateTime,
  int,
  oneOfValues,
  responseObject,
  text,
  nullableUtcDateTime,
} from './primitives';

export const EVENT_TYPE_VALUES = [
  'floorplan.published',
  'table.occupied',
  'table.freed',
  'table.spend_updated',
] as const;
export const DELIVERY_STATUS_VALUES = ['pending', 'succeeded', 'failed'] as const;

/** Per location, strictly increasing from 1; a provider orders and deduplicates on it. */
export const sequenceSchema = () => int(1, Number.MAX_SAFE_INTEGER);

const eventTypes = () =>
  ({ type: 'array', items: oneOfValues(EVENT_TYPE_VALUES), uniqueItems: true }) as const;

export const webhookEndpointRequestSchema = closedObject(
  {
    url: { ...text(1, 2048), description: 'https (unless insecure URLs are allowed); no private hosts' },
    events: { ...eventTypes(), minItems: 1, maxItems: 4, description: 'default: every event type' },
  } as const,
  ['url'],
);

export const webhookEndpointResponseSchema = responseObject({
  url: text(1, 2048),
  events: { ...eventTypes(), minItems: 1, maxItems: 4 },
  secret: {
    type: 'string',
    pattern: '^whsec_[A-Za-z0-9+/]+={0,2}$',
    description: 'the current signing secret; after a rotation the previous one also signs for 24 h',
  },
  createdAt: utcDateTime(),
  updatedAt: utcDateTime(),
} as const);

export const deliveryListQuerySchema = closedObject(
  {
    status: oneOfValues(DELIVERY_STATUS_VALUES),
    limit: { ...int(1, 500), default: 100 },
    cursor: cursorSchema,
  } as const,
  [],
);

export const deliveryAttemptSchema = responseObject({
  attemptedAt: utcDateTime(),
  responseStatus: { type: ['integer', 'null'], minimum: 100, maximum: 599 },
  durationMs: int(0, Number.MAX_SAFE_INTEGER),
  error: { type: ['string', 'null'] },
} as const);

export const deliveryResponseSchema = responseObject({
  id: atLeast(1),
  eventId: atLeast(1),
  eventType: oneOfValues(EVENT_TYPE_VALUES),
  locationEventSequence: sequenceSchema(),
  status: oneOfValues(DELIVERY_STATUS_VALUES),
  attempts: { type: 'array', items: deliveryAttemptSchema },
  nextAttemptAt: nullableUtcDateTime(),
  createdAt: utcDateTime(),
  updatedAt: utcDateTime(),
} as const);

export const deliveryListResponseSchema = responseObject({
  deliveries: { type: 'array', items: deliveryResponseSchema },
  nextCursor: { ...cursorSchema, type: ['string', 'null'] },
} as const);

export const redeliverResponseSchema = responseObject({ deliveryId: atLeast(1) } as const);
