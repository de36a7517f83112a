import { IMPRINT_STATUSES, RESERVATION_STATUSES, VISIT_OUTCOMES, WRITE_OUTCOMES } from '@pis/domain';
import {
  MAX_INT32,
  arrayOf,
  atLeast,
  closedObject,
  dateTime,
  int,
  nullableDateTime,
  nullableInt,
  nullableText,
  nullableUtcDateTime,
  oneOfValues,
  responseObject,
  text,
  utcDateTime,
} from './primitives';

/** Requests accept any valid date-time; responses render UTC with milliseconds. */
const requestTimes = { at: dateTime(), maybe: nullableDateTime() } as const;
const responseTimes = { at: utcDateTime(), maybe: nullableUtcDateTime() } as const;
type Times = typeof requestTimes | typeof responseTimes;

const recentVisitProperties = <T extends Times>(t: T) =>
  ({
    occurredAt: t.at,
    tableLabel: nullableText(1, 40),
    covers: nullableInt(1, MAX_INT32),
    spendMinor: nullableInt(0, MAX_INT32),
    outcome: oneOfValues(VISIT_OUTCOMES),
  }) as const;

export const recentVisitRequestSchema = closedObject(recentVisitProperties(requestTimes), [
  'occurredAt',
  'outcome',
]);
export const recentVisitResponseSchema = responseObject(recentVisitProperties(responseTimes));

const guestProperties = <V, T extends Times>(recentVisit: V, t: T) =>
  ({
    name: nullableText(1, 120),
    phone: nullableText(1, 40),
    email: nullableText(1, 254),
    vip: { type: 'boolean', default: false },
    firstVisit: { type: 'boolean', default: false },
    visitCount: nullableInt(0, MAX_INT32),
    occasion: nullableText(1, 120),
    allergies: nullableText(1, 500),
    tags: { ...arrayOf(text(1, 40), 20), default: [] },
    memberSince: t.maybe,
    averageSpendMinor: nullableInt(0, MAX_INT32),
    noShowCount: nullableInt(0, MAX_INT32),
    recentVisits: { ...arrayOf(recentVisit, 20), default: [] },
  }) as const;

/** Guest, recent-visit and prepayment objects are nullable wherever they appear; null when absent. */
export const guestRequestSchema = {
  ...closedObject(guestProperties(recentVisitRequestSchema, requestTimes), []),
  type: ['object', 'null'],
  default: null,
} as const;
export const guestResponseSchema = {
  ...responseObject(guestProperties(recentVisitResponseSchema, responseTimes)),
  type: ['object', 'null'],
} as const;

const prepaymentItemProperties = { label: text(1, 120), amountMinor: int(0, MAX_INT32) } as const;
export const prepaymentItemRequestSchema = closedObject(prepaymentItemProperties, ['label', 'amountMinor']);
export const prepaymentItemResponseSchema = responseObject(prepaymentItemProperties);

const imprintProperties = {
  amountMinor: int(1, MAX_INT32),
  status: oneOfValues(IMPRINT_STATUSES),
} as const;
export const imprintRequestSchema = {
  ...closedObject(imprintProperties, ['amountMinor', 'status']),
  type: ['object', 'null'],
  default: null,
} as const;
export const imprintResponseSchema = {
  ...responseObject(imprintProperties),
  type: ['object', 'null'],
} as const;

const prepaymentProperties = <I, M>(item: I, imprint: M) =>
  ({
    prepaidMinor: int(0, MAX_INT32),
    currency: text(3, 3),
    items: { ...arrayOf(item, 50), default: [] },
    imprint,
  }) as const;
export const prepaymentRequestSchema = {
  ...closedObject(prepaymentProperties(prepaymentItemRequestSchema, imprintRequestSchema), [
    'prepaidMinor',
    'currency',
  ]),
  type: ['object', 'null'],
  default: null,
} as const;
export const prepaymentResponseSchema = {
  ...responseObject(prepaymentProperties(prepaymentItemResponseSchema, imprintResponseSchema)),
  type: ['object', 'null'],
} as const;

const reservationProperties = <G, P, T extends Times>(guest: G, prepayment: P, t: T) =>
  ({
    externalId: text(1, 128),
    status: oneOfValues(RESERVATION_STATUSES),
    partyName: nullableText(1, 120),
    covers: int(1, MAX_INT32),
    startsAt: t.at,
    endsAt: t.maybe,
    // Duplicates are refused here (path `/tableIds/<i>`); the domain checks them again.
    tableIds: { ...arrayOf(atLeast(1), 20), uniqueItems: true, default: [] },
    guest,
    internalNote: nullableText(1, 500),
    prepayment,
    // Stored and echoed, never interpreted (docs/reference/provider-api.md#reservation-fields).
    posOrderId: nullableText(1, 128),
    updatedAt: t.at,
  }) as const;

/** The POST and PUT body. */
export const reservationRequestSchema = closedObject(
  reservationProperties(guestRequestSchema, prepaymentRequestSchema, requestTimes),
  ['externalId', 'status', 'covers', 'startsAt', 'updatedAt'],
);

/** Every request field with its default filled, plus what the service sets. */
export const reservationResponseSchema = responseObject({
  id: atLeast(1),
  ...reservationProperties(guestResponseSchema, prepaymentResponseSchema, responseTimes),
  linkedOrderId: { type: ['string', 'null'] },
  arrivedAt: nullableUtcDateTime(),
  receivedAt: utcDateTime(),
} as const);

export const reservationWriteResponseSchema = responseObject({
  outcome: oneOfValues(WRITE_OUTCOMES),
  reservation: reservationResponseSchema,
} as const);
