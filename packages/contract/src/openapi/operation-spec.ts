import type { ComponentName, QueryName } from '../schemas/components';

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** One endpoint as the document describes it; the document is generated from a table of these. */
export interface OperationSpec {
  operationId: string;
  method: HttpMethod;
  path: string;
  tag: 'provider' | 'webhooks' | 'recovery' | 'sandbox' | 'backoffice' | 'health';
  summary: string;
  description?: string;
  /** `none` only for the document itself. */
  security: 'providerKey' | 'backofficeToken' | 'none';
  pathParams?: { name: string; description: string }[];
  query?: QueryName;
  body?: ComponentName;
  /** The body may be left out (then it is as if `{}` were sent). */
  bodyOptional?: true;
  success: { status: number; description: string; schema: ComponentName | 'OpenApiDocument' | null };
  /** A second success status with the same body (a grant: 201 the first time, 200 after). */
  alsoSuccess?: { status: number; description: string };
  /**
   * A provider operation that acts on no one location (its key's provider as a whole): it takes
   * no `Location-Id`. Every other provider operation acts on the location the key names.
   */
  providerWide?: true;
  /**
   * A webhook-endpoint operation: a provider key may leave `Location-Id` out to act on its
   * provider-scope endpoints (so it never answers `location_required`).
   */
  providerScope?: true;
  /** Error statuses the endpoint can give and, for each, when (the codes it carries). */
  errors: Partial<Record<ErrorStatus, string>>;
}

export type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 410 | 413 | 415 | 422 | 429 | 500 | 503;

/** Statuses every authenticated endpoint can give (docs/reference/errors.md#codes). */
export const authErrors = (rateLimited: boolean): Partial<Record<ErrorStatus, string>> => ({
  401: 'unauthorized: missing, malformed, unknown or revoked credential',
  ...(rateLimited
    ? { 429: 'rate_limited: per-key rate limit exceeded; retry after Retry-After seconds' }
    : {}),
  500: 'internal_error: anything unexpected; quote X-Request-Id when reporting it',
  503: 'internal_error: the service is temporarily unavailable',
});

/** Whether the operation acts on one location a provider key names with `Location-Id`. */
export const namesLocation = (op: OperationSpec): boolean =>
  op.security === 'providerKey' && !op.providerWide;

/**
 * What the `Location-Id` check can answer (before the operation's own rules), merged into the
 * operation's own errors of the same status.
 */
export function withLocationErrors(
  errors: OperationSpec['errors'],
  providerScope = false,
): OperationSpec['errors'] {
  const add = (status: ErrorStatus, text: string) =>
    errors[status] ? `${errors[status]}; or ${text}` : text;
  return {
    ...errors,
    ...(providerScope
      ? {}
      : { 400: add(400, 'location_required: a provider key without the Location-Id header') }),
    403: add(
      403,
      'location_not_granted: the key may not act for that location (no active connection, an unknown location, ' +
        "a key mode that does not fit the location's, or a location key naming another location)",
    ),
    422: add(422, 'validation_failed: Location-Id is not a UUID'),
  };
}

/** Statuses an endpoint with a JSON body can give besides its own 422s. */
export const bodyErrors = (unprocessable: string): Partial<Record<ErrorStatus, string>> => ({
  400: 'validation_failed: the body is not valid JSON',
  413: 'validation_failed: the body is larger than 1 MiB',
  415: 'validation_failed: the body is not sent as application/json',
  422: unprocessable,
});
