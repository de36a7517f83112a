import { DELIVERY_STATUSES, EVENT_TYPES, WEBHOOK_EVENT_TYPES } from '@pis/domain';
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

/** The types an endpoint of POST /webhook-endpoints may name: the connection events too (provider scope only). */
const subscribableTypes = () =>
  ({ type: 'array', items: oneOfValues(WEBHOOK_EVENT_TYPES), uniqueItems: true }) as const;

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
    endpointId: { ...text(1, 64), description: 'only the deliveries to this endpoint' },
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
  endpointId: { ...atLeast(1), description: 'the endpoint the delivery is made to' },
  eventId: atLeast(1),
  eventType: oneOfValues(WEBHOOK_EVENT_TYPES),
  locationEventSequence: {
    ...sequenceSchema(),
    type: ['integer', 'null'],
    description:
      "the event's sequence at its location; null for a connection event (in no location's sequence)",
  },
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

/** Endpoints created with POST /webhook-endpoints: at most this many per scope. */
const descriptionSchema = () => ({
  ...text(0, 200),
  description: 'free text for you, at most 200 characters',
});

export const webhookEndpointCreateRequestSchema = closedObject(
  {
    url: { ...text(1, 2048), description: 'https (unless insecure URLs are allowed); no private hosts' },
    eventTypes: {
      ...subscribableTypes(),
      minItems: 1,
      maxItems: WEBHOOK_EVENT_TYPES.length,
      description:
        'the event types it receives; default: every event type of its scope. connection.granted and connection.revoked are for provider-scope endpoints only (422 on a location-scope endpoint)',
    },
    description: descriptionSchema(),
  } as const,
  ['url'],
);

export const webhookEndpointPatchRequestSchema = closedObject(
  {
    url: { ...text(1, 2048), description: 'https (unless insecure URLs are allowed); no private hosts' },
    eventTypes: { ...subscribableTypes(), minItems: 1, maxItems: WEBHOOK_EVENT_TYPES.length },
    description: { ...descriptionSchema(), type: ['string', 'null'] },
  } as const,
  [],
);

export const scopedWebhookEndpointSchema = responseObject({
  id: { ...atLeast(1), description: 'the endpoint id: its deliveries name it (endpointId)' },
  url: text(1, 2048),
  secret: {
    type: 'string',
    pattern: '^whsec_[A-Za-z0-9+/]+={0,2}$',
    description: 'the current signing secret; after a rotation the previous one also signs for 24 h',
  },
  eventTypes: { ...subscribableTypes(), minItems: 1, maxItems: WEBHOOK_EVENT_TYPES.length },
  description: { type: ['string', 'null'] },
  scope: {
    ...oneOfValues(['location', 'provider'] as const),
    description:
      "location: it receives the events of one location (the key's, or the Location-Id). provider (a provider key without Location-Id): the events of every location the provider is connected to, and its connection events",
  },
  locationId: {
    type: ['string', 'null'],
    minLength: 1,
    description: 'the location of a location-scope endpoint; null for a provider-scope one',
  },
  status: {
    ...oneOfValues(['enabled', 'disabled'] as const),
    description: 'disabled: deliveries stopped (see disabledReason); a PATCH re-enables it',
  },
  disabledReason: { type: ['string', 'null'] },
  createdAt: utcDateTime(),
  updatedAt: utcDateTime(),
} as const);

export const scopedWebhookEndpointListSchema = responseObject({
  endpoints: { type: 'array', items: scopedWebhookEndpointSchema },
} as const);
