import { HttpError } from '../errors/http-error';
import type { RouteHandlers } from './operation-routes';

/** `/healthz` answers while the process runs; `/readyz` only while `ready` says it can serve. */
export function healthHandlers(ready: () => Promise<boolean>): RouteHandlers {
  return {
    getHealth: (_req, res) => {
      res.json({ status: 'ok' });
    },
    getReadiness: async (_req, res, next) => {
      if (await ready().catch(() => false)) return res.json({ status: 'ready' });
      next(
        new HttpError(503, 'internal_error', 'the database is not reachable', null, undefined, {
          'Retry-After': '1',
        }),
      );
    },
  };
}
