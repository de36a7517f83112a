import { ServiceUnavailableError } from '@pis/domain';
import type { ErrorRequestHandler, RequestHandler } from 'express';
import type { Logger } from 'pino';
import { HttpError } from '../errors/http-error';
import { bodyTooLarge } from './json-body';

/** body-parser's error types and what the contract answers for them. */
const BODY_ERRORS: Record<string, () => HttpError> = {
  'entity.parse.failed': () => HttpError.validation(400, 'the body is not valid JSON'),
  'entity.too.large': bodyTooLarge,
  'entity.verify.failed': () => HttpError.validation(400, 'the body could not be read'),
  'request.size.invalid': () => HttpError.validation(400, 'the body is shorter than its Content-Length'),
  'encoding.unsupported': () => HttpError.validation(415, 'unsupported Content-Encoding'),
  'charset.unsupported': () => HttpError.validation(415, 'unsupported charset; send UTF-8 JSON'),
  // The client went away (or was cut off by the server's request timeout) mid-body: its
  // doing, not a fault of the service, so no error log and no 500.
  'request.aborted': () => HttpError.validation(400, 'the request was aborted before its body was received'),
};

export function notFound(): RequestHandler {
  return (req, _res, next) => next(new HttpError(404, 'not_found', `no route for ${req.method} ${req.path}`));
}

/**
 * The last handler: every error leaves in the envelope with the request id. Unexpected
 * errors are logged whole and answered without internals: 503 when the database or queue
 * is unavailable (worth a retry), else 500.
 */
export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (error, req, res, _next) => {
    const known =
      error instanceof HttpError
        ? error
        : typeof error?.type === 'string' && BODY_ERRORS[error.type]
          ? BODY_ERRORS[error.type]!()
          : requestError(error);
    const answer = known ?? unexpected(error);
    if (!known || answer.status >= 500) {
      logger.error(
        { err: error, requestId: res.locals.requestId, method: req.method, path: req.path },
        'request failed',
      );
    }
    if (res.headersSent) return res.end();
    // For the request's log line (app.ts).
    res.locals.errorCode = answer.code;
    res.status(answer.status).set(answer.headers).json(answer.toEnvelope());
  };
}

/**
 * What Express and body-parser raise about the request itself without a `type` above: a
 * path parameter that is not valid percent-encoded UTF-8 (the router's URIError) names
 * nothing, so 404 not_found as for an unknown path; a body that its Content-Encoding cannot
 * decompress (zlib's error, which body-parser gives status 400) is 400 validation_failed.
 */
function requestError(error: unknown): HttpError | null {
  if (error instanceof URIError) {
    return new HttpError(404, 'not_found', 'the path is not valid percent-encoded UTF-8');
  }
  const e = error as { status?: unknown; expose?: unknown } | null;
  if (typeof e === 'object' && e !== null && e.status === 400 && e.expose === true) {
    return HttpError.validation(400, 'the body could not be decoded with its Content-Encoding');
  }
  return null;
}

function unexpected(error: unknown): HttpError {
  return error instanceof ServiceUnavailableError
    ? new HttpError(
        503,
        'internal_error',
        'the service is temporarily unavailable; retry shortly',
        null,
        undefined,
        {
          'Retry-After': '1',
        },
      )
    : new HttpError(
        500,
        'internal_error',
        'an unexpected error occurred; quote the X-Request-Id when reporting it',
      );
}
