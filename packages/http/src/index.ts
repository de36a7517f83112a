export { createHttpApp, PROVIDER_PREFIX, BACKOFFICE_PREFIX, type HttpAppOptions } from './app';
export { CachedAccessQueries } from './auth/cached-access-queries';
export { HttpError, fromFailure, type ErrorEnvelope, type WireErrorCode } from './errors/http-error';
export { isUnavailable } from './middleware/error-handler';
export { MAX_BODY_BYTES } from './middleware/json-body';
export type { BackofficeHooks } from './routers/backoffice.routes';
