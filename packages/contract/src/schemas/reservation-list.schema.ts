import { atLeast, closedObject, dateTime, int, responseObject, utcDateTime } from './primitives';
import { reservationResponseSchema } from './reservation.schema';

/** An opaque keyset position handed out as `nextCursor`; null on the last page. */
export const cursorSchema = { ...atLeast(1), maxLength: 512 } as const;

/** Query parameters arrive as strings; `limit` is coerced to an integer before validation. */
export const reservationListQuerySchema = closedObject(
  {
    from: dateTime('inclusive lower bound of startsAt'),
    to: dateTime('exclusive upper bound of startsAt; at most 31 days after from'),
    limit: { ...int(1, 500), default: 100 },
    cursor: cursorSchema,
  } as const,
  ['from', 'to'],
);

export const reservationListResponseSchema = responseObject({
  reservations: { type: 'array', items: reservationResponseSchema },
  generatedAt: utcDateTime(),
  nextCursor: { ...cursorSchema, type: ['string', 'null'] },
} as const);
