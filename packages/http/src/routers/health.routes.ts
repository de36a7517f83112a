import { HttpError } from '../errors/http-error';
import type { RouteHandlers } from './operation-routes';

/** Which webhook URLs the deployment accepts: `WEBHOOK_ALLOW_INSECURE_URLS`, `WEBHOOK_ALLOW_PRIVATE_URLS`. */
export interface WebhookUrlRules {
  webhookAllowInsecureUrls: boolean;
  webhookAllowPrivateUrls: boolean;
}

/**
 * `/healthz` answers while the process runs, with the webhook URL rules it applies;
 * `/readyz` only while `ready` says it can serve.
 */
export function healthHandlers(ready: () => Promise<boolean>, rules: WebhookUrlRules): RouteHandlers {
  const health = { status: 'ok', ...rules };
  return {
    getHealth: (_req, res) => {
      res.json(health);
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
