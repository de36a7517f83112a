import { MAX_INT32, atLeast, utcDateTime, int, oneOfValues, responseObject } from './primitives';
import { sequenceSchema } from './webhook-endpoint.schema';

const reservationExternalId = () =>
  ({ type: ['string', 'null'], minLength: 1, maxLength: 128, description: 'null for a walk-in' }) as const;

/** `{type, timestamp, data}`; every `data` carries `locationEventSequence` (decisions section 7). */
const eventBody = <T extends string, D extends Record<string, unknown>>(type: T, data: D) =>
  responseObject({
    type: { type: 'string', const: type },
    timestamp: { ...utcDateTime(), description: 'when the event happened, UTC' },
    data: responseObject({ ...data, locationEventSequence: sequenceSchema() }),
  } as const);

export const floorplanPublishedEventSchema = eventBody('floorplan.published', {
  version: int(1, MAX_INT32),
  publishedAt: utcDateTime(),
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
  reason: oneOfValues(['closed', 'moved', 'voided'] as const),
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
} as const);
