import type { RequestHandler } from 'express';
import { HttpError } from '../errors/http-error';
import { RATE_WINDOW_SECONDS, type KeyRateLimiter } from './key-rate-limiter';

/**
 * Per-key rate limit (docs/reference/limits-and-formats.md#rate-limit). Runs after
 * authentication, keyed by the API key's id; every answer it lets through or refuses carries
 * `X-RateLimit-Limit`, `X-RateLimit-Remaining` and `X-RateLimit-Reset` (seconds), and a
 * refusal is 429 `rate_limited` with `Retry-After`. `null`: no limit, no headers. A request that
 * `refusedEarlier` says is already refused (by a check the contract orders before the route's
 * own) is counted and given the headers, and left to that refusal rather than answered 429.
 */
export function rateLimit(
  limiter: KeyRateLimiter | null,
  keyOf: (locals: Record<string, unknown>) => string,
  refusedEarlier: (locals: Record<string, unknown>) => boolean = () => false,
): RequestHandler {
  if (limiter === null) return (_req, _res, next) => next();
  const policy = `rate limit of ${limiter.rps} requests a second exceeded (${limiter.limit} per ${RATE_WINDOW_SECONDS}-second window)`;
  return async (_req, res, next) => {
    const decision = await limiter.take(keyOf(res.locals));
    const resetSeconds = Math.ceil(decision.resetMs / 1000);
    res.set({
      'X-RateLimit-Limit': String(decision.limit),
      'X-RateLimit-Remaining': String(decision.remaining),
      'X-RateLimit-Reset': String(resetSeconds),
    });
    if (decision.allowed || refusedEarlier(res.locals)) return next();
    next(
      new HttpError(429, 'rate_limited', policy, null, undefined, {
        'Retry-After': String(Math.max(1, resetSeconds)),
      }),
    );
  };
}
