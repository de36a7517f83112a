import type { ErrorCode, Failure, OccupiedBy, ValidationDetail } from '@pis/domain';

/** The domain's codes plus those only HTTP can give (docs/reference/errors.md#codes). */
export type WireErrorCode =
  | ErrorCode
  | 'rate_limited'
  | 'internal_error'
  | 'sandbox_only'
  | 'idempotency_key_reused'
  | 'idempotency_in_progress';

export interface ErrorEnvelope {
  error: {
    code: WireErrorCode;
    message: string;
    occupiedBy: OccupiedBy | null;
    details?: ValidationDetail[];
  };
}

/** A refusal on its way to the client: the envelope and the status it travels with. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: WireErrorCode,
    message: string,
    readonly occupiedBy: OccupiedBy | null = null,
    readonly details?: ValidationDetail[],
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'HttpError';
    Object.setPrototypeOf(this, new.target.prototype);
  }

  toEnvelope(): ErrorEnvelope {
    const error: ErrorEnvelope['error'] = {
      code: this.code,
      message: this.message,
      occupiedBy: this.occupiedBy,
    };
    // docs/reference/errors.md#envelope: `details` is the one extra field, and only with validation_failed.
    if (this.code === 'validation_failed' && this.details && this.details.length > 0) {
      error.details = this.details;
    }
    return { error };
  }

  static validation(status: 400 | 413 | 415 | 422, message: string, details?: ValidationDetail[]): HttpError {
    return new HttpError(status, 'validation_failed', message, null, details);
  }
}

/**
 * The one table from domain codes to HTTP statuses (docs/reference/errors.md#codes).
 * `floorplan_not_published` is 404 when the plan itself is read and 409 when a write
 * names tables: the route that reads the plan says so with `overrides`.
 */
const STATUS: Record<ErrorCode, number> = {
  unauthorized: 401,
  unknown_reservation: 404,
  not_found: 404,
  duplicate_reservation: 409,
  table_occupied: 409,
  floorplan_not_published: 409,
  draft_not_empty: 409,
  order_closed: 409,
  events_expired: 410,
  location_required: 400,
  location_not_granted: 403,
  endpoint_limit: 409,
  validation_failed: 422,
  unknown_table_id: 422,
};

export function fromFailure(failure: Failure, overrides: Partial<Record<ErrorCode, number>> = {}): HttpError {
  const status = overrides[failure.code] ?? STATUS[failure.code];
  const headers: Record<string, string> =
    failure.code === 'unauthorized' ? { 'WWW-Authenticate': 'Bearer' } : {};
  return new HttpError(status, failure.code, failure.message, failure.occupiedBy, failure.details, headers);
}
