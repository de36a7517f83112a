import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger, ServiceMetrics } from '@pis/runtime';

export interface MetricsServer {
  port: number;
  close(): Promise<void>;
}

/**
 * The worker's only HTTP listener (`WORKER_METRICS_PORT`): `GET /metrics` (behind
 * `METRICS_TOKEN` when set), `GET /healthz` (the process runs, with its webhook URL rules) and `GET /readyz` (its
 * database answers). Errors answer in the API's envelope.
 */
export async function startMetricsServer(
  metrics: ServiceMetrics,
  ready: () => Promise<boolean>,
  /** What `/healthz` answers (the API's body: status and the webhook URL rules). */
  health: object,
  port: number,
  logger: Logger,
): Promise<MetricsServer> {
  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      logger.error({ err }, 'the metrics listener failed to answer');
      if (!res.headersSent) fail(res, 500, 'internal_error', 'the metrics could not be collected');
    });
  });
  // A scraper's keep-alive connection must not hold the worker's shutdown.
  server.keepAliveTimeout = 5_000;

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? '/').split('?')[0];
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      return fail(res, 405, 'not_found', `${req.method} is not allowed on this resource`, {
        Allow: 'GET, HEAD',
      });
    }
    if (path === '/healthz') return json(res, 200, health);
    if (path === '/readyz') {
      if (await ready().catch(() => false)) return json(res, 200, { status: 'ready' });
      return fail(res, 503, 'internal_error', 'the database is not reachable', { 'Retry-After': '1' });
    }
    if (path !== '/metrics') return fail(res, 404, 'not_found', 'no such resource on the worker');
    if (!metrics.authorized(req.headers.authorization)) {
      return fail(
        res,
        401,
        'unauthorized',
        'the metrics token is required: Authorization: Bearer <METRICS_TOKEN>',
        {
          'WWW-Authenticate': 'Bearer',
        },
      );
    }
    const { contentType, text } = await metrics.scrape();
    res.writeHead(200, { 'Content-Type': contentType }).end(text);
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function json(res: ServerResponse, status: number, body: object, headers: Record<string, string> = {}): void {
  res
    .writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', ...headers })
    .end(JSON.stringify(body));
}

function fail(
  res: ServerResponse,
  status: number,
  code: string,
  message: string,
  headers: Record<string, string> = {},
): void {
  json(res, status, { error: { code, message, occupiedBy: null } }, headers);
}
