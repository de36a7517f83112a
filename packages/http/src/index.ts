export { createHttpApp, PROVIDER_PREFIX, BACKOFFICE_PREFIX, type HttpAppOptions } from './app';
export { CachedAccessQueries } from './auth/cached-access-queries';
export { HttpError, fromFailure, type ErrorEnvelope, type WireErrorCode } from './errors/http-error';
export { MAX_BODY_BYTES } from './middleware/json-body';
export { KeyRateLimiter, type KeyRateLimiterOptions, type RateDecision } from './middleware/key-rate-limiter';
export type { BackofficeHooks } from './routers/backoffice.routes';
export { backofficeAuth } from './auth/backoffice-auth';
export type { HttpMetrics } from './middleware/metrics';
