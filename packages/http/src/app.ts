import express, { Router, type Express } from 'express';
import pinoHttp from 'pino-http';
import type { Logger } from 'pino';
import type { Deps } from '@pis/domain';
import { namesLocation, operations, type ContractValidator } from '@pis/contract';
import { backofficeAuth } from './auth/backoffice-auth';
import { consoleRoutes } from './console/console.routes';
import { docsRoutes } from './docs/docs.routes';
import {
  locationOfRequest,
  providerAuth,
  rateKeyOf,
  refuseUnlocated,
  sandboxOnly,
  unlocated,
} from './auth/provider-auth';
import { HttpError } from './errors/http-error';
import { errorHandler, notFound } from './middleware/error-handler';
import { jsonBody } from './middleware/json-body';
import type { KeyRateLimiter } from './middleware/key-rate-limiter';
import { metricsEndpoint, requestTiming, type HttpMetrics } from './middleware/metrics';
import { rateLimit } from './middleware/rate-limit';
import { requestId } from './middleware/request-id';
import { uuidParams } from './middleware/uuid-params';
import { backofficeHandlers, type BackofficeHooks } from './routers/backoffice.routes';
import { operationRoutes, type RouteGuards } from './routers/operation-routes';
import { healthHandlers } from './routers/health.routes';
import { providerHandlers, providerWideHandlers } from './routers/provider.routes';
import { sandboxHandlers } from './routers/sandbox.routes';
import { mountRoutes } from './routers/route-table';

export const PROVIDER_PREFIX = '/api/provider/v1';
const NO_GUARDS: RouteGuards = { before: [], body: (_req, _res, next) => next(), after: [] };
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
  /** Prometheus: `GET /metrics` and a duration sample per request (README, Operate). */
  metrics?: HttpMetrics;
}

/**
 * The Express application: provider API, operator surface, health, the OpenAPI document,
 * the API reference page rendered from it and the operator console.
 * Checks run in the contract's order: authentication, the location (a provider key's
 * Location-Id), rate limit, body, then the use case.
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
      }),
    );
  }

  const probes = operations.filter((op) => op.tag === 'health');
  mountRoutes(app, operationRoutes(probes, '', healthHandlers(options.ready), NO_GUARDS));

  const docs = Router();
  const title = (options.openApiDocument as { info?: { title?: string } }).info?.title ?? 'API';
  mountRoutes(docs, docsRoutes(`${PROVIDER_PREFIX}/openapi.json`, `${title}: API reference`));
  app.use(docs);

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
  const providerGuards = {
    before: [
      providerAuth(deps),
      locationOfRequest(deps),
      rateLimit(options.rateLimiter, rateKeyOf, unlocated),
      refuseUnlocated(),
    ],
    body: jsonBody(),
    after: [uuidParams()],
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
    after: [uuidParams()],
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
