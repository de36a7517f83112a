import { traceRouteMatched } from '@pis/domain';
import type { RequestHandler } from 'express';
import { HttpError } from '../errors/http-error';

/** What the HTTP app needs of the service's metrics (the apps build them with prom-client). */
export interface HttpMetrics {
  /** Whether this `Authorization` header may read `/metrics`. */
  authorized(authorization: string | undefined): boolean;
  scrape(): Promise<{ contentType: string; text: string }>;
  /** One answered request; `route` is its route pattern, or `unmatched`. */
  observeRequest(sample: { method: string; route: string; status: number; seconds: number }): void;
}

/** Set on a matched route by `rememberRoute`: its pattern, read when the response is finished. */
const ROUTE = 'metricsRoute';

/**
 * The first handler of every mounted route: its full pattern (`/api/provider/v1/reservations/:externalId`),
 * taken while Express still knows it (on an error the router has already unwound `baseUrl`).
 * It also names the request's server span when tracing is on (instead of the express
 * instrumentation, which costs a wrapper on every middleware of every request), and lets
 * tracing run the route's handlers in a context of its own (an unsampled request's).
 */
export const rememberRoute: RequestHandler = (req, res, next) => {
  if (res.locals[ROUTE] !== undefined) return next();
  const route = `${req.baseUrl}${req.route?.path ?? ''}`;
  res.locals[ROUTE] = route;
  traceRouteMatched(route, next, req);
};

/** Observes every request's duration, method, route pattern (never the raw path) and status. */
export function requestTiming(metrics: HttpMetrics): RequestHandler {
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    res.once('finish', () => {
      const route =
        (res.locals[ROUTE] as string | undefined) ??
        (req.route ? `${req.baseUrl}${req.route.path}` : 'unmatched');
      metrics.observeRequest({
        method: req.method,
        route,
        status: res.statusCode,
        seconds: Number(process.hrtime.bigint() - started) / 1e9,
      });
    });
    next();
  };
}

/** `GET /metrics`: the Prometheus text, behind `METRICS_TOKEN` when one is set; no other credential. */
export function metricsEndpoint(metrics: HttpMetrics): RequestHandler {
  return async (req, res, next) => {
    if (!metrics.authorized(req.get('authorization'))) {
      return next(
        new HttpError(
          401,
          'unauthorized',
          'the metrics token is required: Authorization: Bearer <METRICS_TOKEN>',
          null,
          undefined,
          { 'WWW-Authenticate': 'Bearer' },
        ),
      );
    }
    const { contentType, text } = await metrics.scrape();
    res.type(contentType).send(text);
  };
}
