import { atLeast, closedObject, oneOfValues, responseObject } from './primitives';

/** The spec's codes plus the three decisions section 2 adds (not_found, rate_limited, internal_error). */
export const ERROR_CODE_VALUES = [
  'unauthorized',
  'unknown_reservation',
  'duplicate_reservation',
  'unknown_table_id',
  'table_occupied',
  'floorplan_not_published',
  'draft_not_empty',
  'validation_failed',
  'not_found',
  'rate_limited',
  'internal_error',
] as const;

export const occupiedBySchema = {
  ...responseObject({
    orderId: { type: ['string', 'null'] },
    reservationExternalId: { type: ['string', 'null'] },
  } as const),
  type: ['object', 'null'],
  description: 'who holds the table; null unless the code is table_occupied',
} as const;

export const validationDetailSchema = responseObject({
  path: { type: 'string', description: 'JSON Pointer into the request body or query, e.g. /guest/tags/3' },
  message: atLeast(1),
} as const);

/** Clients branch on `error.code` only; `details` appears only with validation_failed. */
export const errorEnvelopeSchema = responseObject({
  error: closedObject(
    {
      code: oneOfValues(ERROR_CODE_VALUES),
      message: atLeast(1),
      occupiedBy: occupiedBySchema,
      details: { type: 'array', items: validationDetailSchema },
    } as const,
    ['code', 'message', 'occupiedBy'],
  ),
} as const);
