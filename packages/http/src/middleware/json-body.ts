import express, { type RequestHandler } from 'express';
import { HttpError } from '../errors/http-error';
import { unstorableStrings } from './unstorable-strings';

export const MAX_BODY_BYTES = 1024 * 1024;

/**
 * Bodies are JSON or nothing (docs/reference/limits-and-formats.md#request-bodies): a body without
 * `Content-Type: application/json` is 415, above 1 MiB 413, not JSON 400 — all
 * `validation_failed`. Any JSON value is parsed (`strict: false`) so that a primitive
 * body meets the schema and gets a 422 that says what was expected. A string the database
 * cannot store as sent (U+0000, a lone surrogate) is a 422 here too.
 */
export function jsonBody(limitBytes = MAX_BODY_BYTES): RequestHandler {
  const parse = express.json({ limit: limitBytes, strict: false, type: () => true });
  return (req, res, next) => {
    if (!hasBody(req.headers)) {
      req.body = undefined;
      return next();
    }
    if (!req.is('application/json')) {
      return next(HttpError.validation(415, 'the body must be sent with Content-Type: application/json'));
    }
    // A declared length over the limit is refused at once: body-parser would read (and drop)
    // the whole body before answering, so a client waiting for an answer would get none.
    if (Number(req.headers['content-length']) > limitBytes) {
      return next(bodyTooLarge());
    }
    parse(req, res, (error?: unknown) => {
      if (error) return next(error);
      const details = unstorableStrings(req.body);
      if (details.length === 0) return next();
      next(
        HttpError.validation(
          422,
          `the request is invalid: ${details[0]!.path || '/'} ${details[0]!.message}`,
          details,
        ),
      );
    });
  };
}

function hasBody(headers: Record<string, string | string[] | undefined>): boolean {
  const length = headers['content-length'];
  return headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/** 413 for a body over the limit, whether its declared length or body-parser's count says so. */
export const bodyTooLarge = (): HttpError => HttpError.validation(413, 'the body is larger than 1 MiB');
