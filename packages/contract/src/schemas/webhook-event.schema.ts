import { TABLE_FREED_REASONS } from '@pis/domain';
import { MAX_INT32, atLeast, utcDateTime, int, oneOfValues, responseObject } from './primitives';
import { floorPlanChangesSchema } from './floor-plan.schema';
import { checkSchema, checkTotalsSchema, SERVICE_STATUS_VALUES } from './order.schema';
import { sequenceSchema } from './webhook-endpoint.schema';

const reservationExternalId = () =>
  ({ type: ['string', 'null'], minLength: 1, maxLength: 128, description: 'null for a walk-in' }) as const;

/**
 * `{type, timestamp, data}`; every `data` carries `locationId` and `locationEventSequence`
 * (docs/reference/webhooks.md#event-body).
 */
const eventBody = <T extends string, D extends Record<string, unknown>>(type: T, data: D) =>
  responseObject({
    type: { type: 'string', const: type },
    timestamp: { ...utcDateTime(), description: 'when the event happened, UTC' },
    data: responseObject({
      ...data,
      locationId: { ...atLeast(1), description: 'the location whose event this is' },
      locationEventSequence: sequenceSchema(),
    }),
  } as const);

export const floorplanPublishedEventSchema = eventBody('floorplan.published', {
  version: int(1, MAX_INT32),
  publishedAt: utcDateTime(),
  // Against the previous published version; on version 1 every table is added.
  changes: floorPlanChangesSchema,
} as const);

export const tableOccupiedEventSchema = eventBody('table.occupied', {
  tableId: atLeast(1),
  orderId: atLeast(1),
  reservationExternalId: reservationExternalId(),
  covers: int(1, MAX_INT32),
  occurredAt: utcDateTime(),
} as const);

export const tableFreedEventSchema = eventBody('table.freed', {
  tableId: atLeast(1),
  orderId: atLeast(1),
  reservationExternalId: reservationExternalId(),
  reason: oneOfValues(TABLE_FREED_REASONS),
  occurredAt: utcDateTime(),
} as const);

export const tableSpendUpdatedEventSchema = eventBody('table.spend_updated', {
  tableIds: { type: 'array', items: atLeast(1), minItems: 1 },
  orderId: atLeast(1),
  reservationExternalId: reservationExternalId(),
  spendMinor: int(0, MAX_INT32),
  currency: { type: 'string', pattern: '^[A-Z]{3}$' },
  covers: int(1, MAX_INT32),
  occurredAt: utcDateTime(),
  totals: checkTotalsSchema,
} as const);

export const tableStatusChangedEventSchema = eventBody('table.status_changed', {
  tableIds: { type: 'array', items: atLeast(1), minItems: 1 },
  orderId: atLeast(1),
  reservationExternalId: reservationExternalId(),
  serviceStatus: oneOfValues(SERVICE_STATUS_VALUES),
  occurredAt: utcDateTime(),
} as const);

export const orderClosedEventSchema = eventBody('order.closed', {
  orderId: atLeast(1),
  reservationExternalId: reservationExternalId(),
  tableIds: { type: 'array', items: atLeast(1), minItems: 1 },
  covers: int(1, MAX_INT32),
  currency: { type: 'string', pattern: '^[A-Z]{3}$' },
  openedAt: utcDateTime(),
  closedAt: utcDateTime(),
  check: checkSchema,
} as const);

/**
 * `connection.granted` / `connection.revoked`: to the provider's provider-scope endpoints only,
 * outside every location's sequence (no `locationEventSequence`) and feed.
 */
const connectionEventBody = <T extends string>(type: T, what: string) =>
  responseObject({
    type: { type: 'string', const: type },
    timestamp: { ...utcDateTime(), description: `when the connection was ${what}, UTC` },
    data: responseObject({
      locationId: { ...atLeast(1), description: `the location the provider was ${what}` },
      locationName: { ...atLeast(1), description: "the location's name" },
      occurredAt: utcDateTime(),
    } as const),
  } as const);

export const connectionGrantedEventSchema = connectionEventBody('connection.granted', 'granted');
export const connectionRevokedEventSchema = connectionEventBody('connection.revoked', 'revoked');

/** The body of `POST /webhook-endpoint/test`: no sequence (it is not an event of the location). */
export const webhookTestEventSchema = responseObject({
  type: { type: 'string', const: 'webhook.test' },
  timestamp: { ...utcDateTime(), description: 'when the test was sent, UTC' },
  data: { ...responseObject({} as const), description: 'always empty' },
} as const);
