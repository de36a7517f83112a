import type { ErrorCode, OccupiedBy, Schema, ValidationDetail } from './schemas';

type Envelope = Schema<'ErrorEnvelope'>;

/** An answer of the provider API other than 2xx, with the error envelope's fields. */
export class ProviderApiError extends Error {
  readonly status: number;
  /** `error.code`; null when the answer did not carry the envelope (e.g. a proxy's 502 page). */
  readonly code: ErrorCode | null;
  /** Who holds the table, with `table_occupied`; null otherwise. */
  readonly occupiedBy: OccupiedBy;
  /** Which fields were refused, with `validation_failed`; empty otherwise. */
  readonly details: ValidationDetail[];
  /** `X-Request-Id`: quote it when reporting a problem. */
  readonly requestId: string | null;

  constructor(init: {
    status: number;
    code: ErrorCode | null;
    message: string;
    occupiedBy?: OccupiedBy;
    details?: ValidationDetail[];
    requestId?: string | null;
  }) {
    super(init.message);
    // Keeps `instanceof` working when a consumer's toolchain compiles classes down to ES5.
    Object.setPrototypeOf(this, new.target.prototype);
    this.name = 'ProviderApiError';
    this.status = init.status;
    this.code = init.code;
    this.occupiedBy = init.occupiedBy ?? null;
    this.details = init.details ?? [];
    this.requestId = init.requestId ?? null;
  }

  /** The error of a non-2xx `response` whose body openapi-fetch parsed into `body`. */
  static fromResponse(response: Response, body: unknown): ProviderApiError {
    const requestId = response.headers.get('x-request-id');
    if (isEnvelope(body)) {
      const { code, message, occupiedBy, details } = body.error;
      return new ProviderApiError({
        status: response.status,
        code,
        message,
        occupiedBy,
        ...(details ? { details } : {}),
        requestId,
      });
    }
    const text = typeof body === 'string' ? body.slice(0, 200) : '';
    return new ProviderApiError({
      status: response.status,
      code: null,
      message: `HTTP ${response.status} without the error envelope${text ? `: ${text}` : ''}`,
      requestId,
    });
  }
}

function isEnvelope(body: unknown): body is Envelope {
  if (typeof body !== 'object' || body === null || !('error' in body)) return false;
  const error = body.error;
  return (
    typeof error === 'object' &&
    error !== null &&
    'code' in error &&
    typeof error.code === 'string' &&
    'message' in error &&
    typeof error.message === 'string'
  );
}
