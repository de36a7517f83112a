import { ERROR_CODES } from '@pis/domain';
import { atLeast, closedObject, oneOfValues, responseObject } from './primitives';

/**
 * Every code the service answers with (docs/reference/errors.md#codes): the domain's, then
 * those only the transport answers with.
 */
export const ERROR_CODE_VALUES = [
  ...ERROR_CODES,
  'rate_limited',
  'internal_error',
  'sandbox_only',
  'idempotency_key_reused',
  'idempotency_in_progress',
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
