import { DELIVERY_STATUSES, EVENT_TYPES } from '@pis/domain';
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

/** Per location, strictly increasing from 1; a provider orders and deduplicates on it. */
export const sequenceSchema = () => int(1, Number.MAX_SAFE_INTEGER);

const eventTypes = () => ({ type: 'array', items: oneOfValues(EVENT_TYPES), uniqueItems: true }) as const;

export const webhookEndpointRequestSchema = closedObject(
  {
    url: { ...text(1, 2048), description: 'https (unless insecure URLs are allowed); no private hosts' },
    events: {
      ...eventTypes(),
      minItems: 1,
      maxItems: EVENT_TYPES.length,
      description: 'default: every event type',
    },
  } as const,
  ['url'],
);

export const webhookEndpointResponseSchema = responseObject({
  url: text(1, 2048),
  events: { ...eventTypes(), minItems: 1, maxItems: EVENT_TYPES.length },
  secret: {
    type: 'string',
    pattern: '^whsec_[A-Za-z0-9+/]+={0,2}$',
    description: 'the current signing secret; after a rotation the previous one also signs for 24 h',
  },
  createdAt: utcDateTime(),
  updatedAt: utcDateTime(),
  status: {
    ...oneOfValues(['enabled', 'disabled'] as const),
    description:
      'disabled: deliveries stopped (see disabledReason); events are still kept; a PUT re-enables it',
  },
  disabledAt: nullableUtcDateTime(),
  disabledReason: {
    type: ['string', 'null'],
    description:
      'why deliveries stopped: the receiver answered 410 Gone, or every attempt failed for WEBHOOK_DISABLE_AFTER_HOURS',
  },
} as const);

export const deliveryListQuerySchema = closedObject(
  {
    status: oneOfValues(DELIVERY_STATUSES),
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
  eventType: oneOfValues(EVENT_TYPES),
  locationEventSequence: sequenceSchema(),
  status: oneOfValues(DELIVERY_STATUSES),
  attempts: { type: 'array', items: deliveryAttemptSchema },
  nextAttemptAt: nullableUtcDateTime(),
  createdAt: utcDateTime(),
  updatedAt: utcDateTime(),
} as const);

export const deliveryListResponseSchema = responseObject({
  deliveries: { type: 'array', items: deliveryResponseSchema },
  nextCursor: { ...cursorSchema, type: ['string', 'null'] },
} as const);

/** What one test delivery gave; `delivered` exactly when the receiver answered 2xx. */
export const webhookTestResultSchema = responseObject({
  delivered: { type: 'boolean', description: 'true when the receiver answered 2xx in time' },
  status: {
    type: ['integer', 'null'],
    minimum: 100,
    maximum: 599,
    description: "the receiver's HTTP status; null when no answer came",
  },
  durationMs: int(0, Number.MAX_SAFE_INTEGER),
  error: {
    type: ['string', 'null'],
    description: 'why it was not delivered, in a sentence; null when delivered',
  },
} as const);

export const redeliverResponseSchema = responseObject({ deliveryId: atLeast(1) } as const);
