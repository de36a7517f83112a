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
  success: { status: number; description: string; schema: ComponentName | 'OpenApiDocument' | null };
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

/** Statuses an endpoint with a JSON body can give besides its own 422s. */
export const bodyErrors = (unprocessable: string): Partial<Record<ErrorStatus, string>> => ({
  400: 'validation_failed: the body is not valid JSON',
  413: 'validation_failed: the body is larger than 1 MiB',
  415: 'validation_failed: the body is not sent as application/json',
  422: unprocessable,
});
