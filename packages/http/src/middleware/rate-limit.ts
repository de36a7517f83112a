import type { RequestHandler } from 'express';
import { HttpError } from '../errors/http-error';
import { TokenBuckets } from './token-bucket';

/**
 * Per-key rate limit (decisions section 9: `RATE_LIMIT_RPS`, burst twice that, 0 = off).
 * Runs after authentication, keyed by the API key's id; 429 `rate_limited` with `Retry-After`.
 */
export function rateLimit(rps: number, keyOf: (locals: Record<string, unknown>) => string): RequestHandler {
  if (rps <= 0) return (_req, _res, next) => next();
  const buckets = new TokenBuckets(rps, rps * 2);
  return (_req, res, next) => {
    const waitMs = buckets.take(keyOf(res.locals));
    if (waitMs === 0) return next();
    const retryAfter = String(Math.max(1, Math.ceil(waitMs / 1000)));
    next(
      new HttpError(
        429,
        'rate_limited',
        `rate limit of ${rps} requests per second exceeded`,
        null,
        undefined,
        {
          'Retry-After': retryAfter,
        },
      ),
    );
  };
}
