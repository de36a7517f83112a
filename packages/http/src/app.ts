import express, { Router, type Express, type RequestHandler } from 'express';
import pinoHttp from 'pino-http';
import type { Logger } from 'pino';
import type { Deps, IdempotencyStore } from '@pis/domain';
import { namesLocation, operations, type ContractValidator } from '@pis/contract';
import { backofficeAuth } from './auth/backoffice-auth';
import { consoleRoutes } from './console/console.routes';
import { docsRoutes } from './docs/docs.routes';
import { faviconRoutes } from './favicon';
import {
  callerOf,
  locationOfRequest,
  providerAuth,
  rateKeyOf,
  refuseUnlocated,
  sandboxOnly,
  unlocated,
  type ProviderPrincipal,
} from './auth/provider-auth';
import { HttpError } from './errors/http-error';
import { errorHandler, notFound } from './middleware/error-handler';
import { idempotency } from './middleware/idempotency';
import { jsonBody } from './middleware/json-body';
import type { KeyRateLimiter } from './middleware/key-rate-limiter';
import { metricsEndpoint, requestTiming, type HttpMetrics } from './middleware/metrics';
import { onBehalf } from './middleware/on-behalf';
import { rateLimit } from './middleware/rate-limit';
import { requestId } from './middleware/request-id';
import { uuidParams } from './middleware/uuid-params';
import { backofficeHandlers, type BackofficeHooks } from './routers/backoffice.routes';
import { operationRoutes, type RouteGuards } from './routers/operation-routes';
import { healthHandlers, type WebhookUrlRules } from './routers/health.routes';
import { providerHandlers, providerWideHandlers } from './routers/provider.routes';
import { sandboxHandlers } from './routers/sandbox.routes';
import { mountRoutes } from './routers/route-table';

export const PROVIDER_PREFIX = '/api/provider/v1';

/** The location a provider request acts on, once `locationOfRequest` resolved one. */
const locationOf = (locals: Record<string, unknown>): string | undefined =>
  (locals.principal as ProviderPrincipal | undefined)?.locationId;
const pass: RequestHandler = (_req, _res, next) => next();
const NO_GUARDS: RouteGuards = { before: [], body: pass, after: [], idempotent: pass };
export const BACKOFFICE_PREFIX = '/api/backoffice/v1';

/**
 * A URL as it may be logged: the API takes credentials only in the Authorization header,
 * but a confused client may put a key, token or webhook secret in the query string (or a
 * path); what looks like one is replaced before the line is written (decision 0004).
 */
export function loggableUrl(url: string): string {
  return url
    .replace(/([?&][^=&#]*(?:key|token|secret|auth|pass|sig)[^=&#]*=)[^&#]*/gi, '$1[redacted]')
    .replace(/[a-z0-9]{2,20}_[sp]k_[a-z]+_[a-z0-9]+|whsec_[a-z0-9+/=%]+/gi, '[redacted]');
}

/** Paths that orchestrators and Prometheus call every few seconds: logged at debug. */
const PROBE_PATHS = new Set(['/healthz', '/readyz', '/metrics']);

/**
 * A request's line: probes and scrapes at debug (they would bury everything else at info),
 * answers the service failed at error, every other answer (a refusal included) at info.
 */
export function requestLogLevel(
  req: { url?: string },
  res: { statusCode: number },
  err?: Error,
): 'debug' | 'info' | 'error' {
  if (err !== undefined || res.statusCode >= 500) return 'error';
  return PROBE_PATHS.has((req.url ?? '').split('?')[0]!) ? 'debug' : 'info';
}

function withErrorCode(res: unknown, line: object): object {
  const errorCode = (res as { locals?: { errorCode?: string } }).locals?.errorCode;
  return errorCode === undefined ? line : { ...line, errorCode };
}

export interface HttpAppOptions {
  deps: Deps;
  validator: ContractValidator;
  openApiDocument: object;
  logger: Logger;
  backofficeToken: string;
  /** Counts each key's requests; null turns rate limiting off. */
  rateLimiter: KeyRateLimiter | null;
  hooks: BackofficeHooks;
  /** Whether the service can serve requests now (its database answers). */
  ready: () => Promise<boolean>;
  /** The webhook URLs this deployment accepts, told by `GET /healthz`. */
  webhookUrls: WebhookUrlRules;
  /** Prometheus: `GET /metrics` and a duration sample per request (README, Operate). */
  metrics?: HttpMetrics;
  /** Where `Idempotency-Key` requests keep their answers (docs/decisions/0200-idempotency-keys.md). */
  idempotency: IdempotencyStore;
  /**
   * Runs the rest of each request of one location (the provider key's, or the operator path's
   * `locationId`) on its behalf: with a read replica, that location's writes keep its reads on
   * the primary until the replica has them (decision 0195). Unset: nothing is added.
   */
  onBehalfOf?: (locationId: string, next: () => void) => void;
}

/**
 * The Express application: provider API, operator surface, health, the OpenAPI document,
 * the API reference page rendered from it and the operator console.
 * Checks run in the contract's order: authentication, the location (a provider key's
 * Location-Id), rate limit, body, then (on a POST) the `Idempotency-Key`, then the use case.
 */
export function createHttpApp(options: HttpAppOptions): Express {
  const { deps, validator, logger } = options;
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  if (options.metrics) app.use(requestTiming(options.metrics));
  app.use(requestId());
  if (logger.isLevelEnabled('info')) {
    // One line per request with what operations need and nothing a header could leak.
    app.use(
      pinoHttp({
        logger,
        genReqId: (_req, res) => String(res.getHeader('X-Request-Id')),
        serializers: {
          req: (req: { id: unknown; method: string; url: string }) => ({
            id: req.id,
            method: req.method,
            url: loggableUrl(req.url),
          }),
          res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
        },
        customLogLevel: (req, res, err) => requestLogLevel(req, res, err),
        // A refused or failed request's line names the error code it was answered with.
        customSuccessObject: (_req, res, line) => withErrorCode(res, line),
        customErrorObject: (_req, res, _err, line) => withErrorCode(res, line),
      }),
    );
  }

  const probes = operations.filter((op) => op.tag === 'health');
  mountRoutes(
    app,
    operationRoutes(probes, '', healthHandlers(options.ready, options.webhookUrls), NO_GUARDS),
  );

  const docs = Router();
  const title = (options.openApiDocument as { info?: { title?: string } }).info?.title ?? 'API';
  mountRoutes(docs, docsRoutes(`${PROVIDER_PREFIX}/openapi.json`, `${title}: API reference`));
  app.use(docs);

  const icon = Router();
  mountRoutes(icon, faviconRoutes());
  app.use(icon);

  const operatorConsole = Router();
  mountRoutes(operatorConsole, consoleRoutes());
  app.use(operatorConsole);

  if (options.metrics) app.get('/metrics', metricsEndpoint(options.metrics));

  const provider = Router();
  // The document needs no credential; mounted like every route so another method gets 405.
  mountRoutes(provider, [
    {
      method: 'get',
      path: '/openapi.json',
      handlers: [
        (_req, res) => {
          res.json(options.openApiDocument);
        },
      ],
    },
  ]);
  const keys = { store: options.idempotency, clock: deps.clock, ids: deps.ids, logger };
  const endpointScopeGuards = [
    providerAuth(deps),
    locationOfRequest(deps, { providerScope: true }),
    rateLimit(options.rateLimiter, rateKeyOf, unlocated),
    refuseUnlocated(),
  ];
  const providerGuards = {
    before: [
      providerAuth(deps),
      locationOfRequest(deps),
      rateLimit(options.rateLimiter, rateKeyOf, unlocated),
      refuseUnlocated(),
    ],
    // The webhook endpoint routes take a provider key without Location-Id: its provider scope.
    beforeOf: (op: { providerScope?: true }) => (op.providerScope ? endpointScopeGuards : undefined),
    body: jsonBody(),
    after: [uuidParams(), ...onBehalf(options.onBehalfOf, (_req, res) => locationOf(res.locals))],
    // A key is the credential's at the location it acts on (none on a provider-wide route).
    idempotent: idempotency(
      keys,
      (_req, locals) => `key:${callerOf(locals).keyId}/location:${locationOf(locals) ?? '-'}`,
    ),
  };
  const simulator = operations.filter((op) => op.tag === 'sandbox');
  const providerOps = operations.filter((op) => op.tag !== 'sandbox' && !op.providerWide);
  mountRoutes(
    provider,
    operationRoutes(providerOps, PROVIDER_PREFIX, providerHandlers(deps, validator), providerGuards),
  );
  // Operations on the provider as a whole take no Location-Id; the key alone is counted.
  const providerWideOps = operations.filter((op) => op.providerWide && !namesLocation(op));
  const providerWideGuards = {
    ...providerGuards,
    before: [providerAuth(deps), rateLimit(options.rateLimiter, rateKeyOf)],
  };
  mountRoutes(
    provider,
    operationRoutes(
      providerWideOps,
      PROVIDER_PREFIX,
      providerWideHandlers(deps, validator),
      providerWideGuards,
    ),
  );
  // The simulator refuses a live key before it reads a body.
  const sandboxGuards = { ...providerGuards, before: [...providerGuards.before, sandboxOnly()] };
  mountRoutes(
    provider,
    operationRoutes(simulator, PROVIDER_PREFIX, sandboxHandlers(deps, validator), sandboxGuards),
  );
  app.use(PROVIDER_PREFIX, provider);

  const backoffice = Router();
  const backofficeGuards = {
    before: [backofficeAuth(options.backofficeToken)],
    body: jsonBody(),
    after: [uuidParams(), ...onBehalf(options.onBehalfOf, (req) => req.params['locationId'])],
    // One operator credential; the location is the one the path names, if any.
    idempotent: idempotency(keys, (req) => `backoffice/location:${String(req.params.locationId ?? '-')}`),
  };
  mountRoutes(
    backoffice,
    operationRoutes(
      operations,
      BACKOFFICE_PREFIX,
      backofficeHandlers(deps, validator, options.hooks),
      backofficeGuards,
    ),
  );
  app.use(BACKOFFICE_PREFIX, backoffice);

  app.use(notFound());
  app.use(errorHandler(logger));
  return app;
}
