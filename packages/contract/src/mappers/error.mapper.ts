import type { Failure, OccupiedBy, ValidationDetail } from '@pis/domain';
import type { ErrorEnvelope, WireErrorCode } from '../wire-types';

/**
 * The one error envelope: `occupiedBy` always present (null unless table_occupied),
 * `details` only for validation_failed and only when there are some.
 */
export function toErrorBody(
  code: WireErrorCode,
  message: string,
  occupiedBy: OccupiedBy | null = null,
  details?: readonly ValidationDetail[],
): ErrorEnvelope {
  const error: ErrorEnvelope['error'] = {
    code,
    message,
    occupiedBy:
      occupiedBy === null
        ? null
        : { orderId: occupiedBy.orderId, reservationExternalId: occupiedBy.reservationExternalId },
  };
  if (code === 'validation_failed' && details !== undefined && details.length > 0) {
    error.details = details.map((d) => ({ path: d.path, message: d.message }));
  }
  return { error };
}

export const toFailureBody = (failure: Failure): ErrorEnvelope =>
  toErrorBody(failure.code, failure.message, failure.occupiedBy, failure.details);
