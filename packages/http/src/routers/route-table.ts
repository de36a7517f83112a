import type { RequestHandler, Router } from 'express';
import { HttpError } from '../errors/http-error';
import { rememberRoute } from '../middleware/metrics';

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

export interface Route {
  method: Method;
  path: string;
  handlers: RequestHandler[];
}

/**
 * Mounts routes and answers any other method on a known path with 405 `not_found` and an `Allow`
 * header (docs/reference/errors.md#not_found), so an unknown method is told apart from an unknown
 * route.
 */
export function mountRoutes(router: Router, routes: Route[]): Router {
  const methods = new Map<string, string[]>();
  for (const route of routes) {
    router[route.method](route.path, rememberRoute, ...route.handlers);
    methods.set(route.path, [...(methods.get(route.path) ?? []), route.method.toUpperCase()]);
  }
  for (const [path, allowed] of methods) {
    const allow = allowed.includes('GET') ? [...allowed, 'HEAD'] : allowed;
    router.all(path, rememberRoute, (req, _res, next) =>
      next(
        new HttpError(405, 'not_found', `${req.method} is not allowed on this resource`, null, undefined, {
          Allow: allow.join(', '),
        }),
      ),
    );
  }
  return router;
}
