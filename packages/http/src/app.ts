import express, { Router, type Express } from 'express';
import pinoHttp from 'pino-http';
import type { Logger } from 'pino';
import type { Deps } from '@pis/domain';
import { operations, type ContractValidator } from '@pis/contract';
import { backofficeAuth } from './auth/backoffice-auth';
import { principalOf, providerAuth } from './auth/provider-auth';
import { HttpError } from './errors/http-error';
import { errorHandler, notFound } from './middleware/error-handler';
import { jsonBody } from './middleware/json-body';
import { rateLimit } from './middleware/rate-limit';
import { requestId } from './middleware/request-id';
import { uuidParams } from './middleware/uuid-params';
import { backofficeHandlers, type BackofficeHooks } from './routers/backoffice.routes';
import { operationRoutes } from './routers/operation-routes';
import { providerHandlers } from './routers/provider.routes';
import { mountRoutes } from './routers/route-table';

export const PROVIDER_PREFIX = '/api/provider/v1';
export const BACKOFFICE_PREFIX = '/api/backoffice/v1';

/**
 * A URL as it may be logged: the API takes credentials only in the Authorization header,
 * but a confused client may put a key, token or webhook secret in the query string (or a
 * path); what looks like one is replaced before the line is written (decision 0004).
 */
export function loggableUrl(url: string): string {
  return url
    .replace(/([?&][^=&#]*(?:key|token|secret|auth|pass|sig)[^=&#]*=)[^&#]*/gi, '$1[redacted]')
    .replace(/[a-z0-9]{2,20}_sk_[a-z]+_[a-z0-9]+|whsec_[a-z0-9+/=%]+/gi, '[redacted]');
}

export interface HttpAppOptions {
  deps: Deps;
  validator: ContractValidator;
  openApiDocument: object;
  logger: Logger;
  backofficeToken: string;
  rateLimitRps: number;
  hooks: BackofficeHooks;
  /** Whether the service can serve requests now (its database answers). */
  ready: () => Promise<boolean>;
}

/**
 * The Express application: provider API, operator surface, health, the OpenAPI document.
 * Checks run in the contract's order: authentication, rate limit, body, then the use case.
 */
export function createHttpApp(options: HttpAppOptions): Express {
  const { deps, validator, logger } = options;
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
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

  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.get('/readyz', async (_req, res, next) => {
    if (await options.ready().catch(() => false)) return res.json({ status: 'ready' });
    next(
      new HttpError(503, 'internal_error', 'the database is not reachable', null, undefined, {
        'Retry-After': '1',
      }),
    );
  });

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
    before: [providerAuth(deps), rateLimit(options.rateLimitRps, (locals) => principalOf(locals).keyId)],
    body: jsonBody(),
    after: [uuidParams()],
  };
  mountRoutes(
    provider,
    operationRoutes(operations, PROVIDER_PREFIX, providerHandlers(deps, validator), providerGuards),
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
