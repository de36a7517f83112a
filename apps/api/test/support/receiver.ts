import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/**
 * A provider's webhook endpoint on 127.0.0.1: records every request and answers with
 * what `status` returns for it (204 unless a test says otherwise). One per test file;
 * each location gets its own path, so tests never see each other's deliveries.
 */
export class Receiver {
  readonly requests: Received[] = [];
  status: (request: Received) => number = () => 204;

  private constructor(
    private readonly server: Server,
    readonly origin: string,
  ) {}

  static async start(): Promise<Receiver> {
    const holder: { receiver?: Receiver } = {};
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const request = {
          path: req.url ?? '',
          headers: req.headers,
          body: Buffer.concat(chunks).toString('utf8'),
        };
        holder.receiver!.requests.push(request);
        res.writeHead(holder.receiver!.status(request)).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    holder.receiver = new Receiver(server, `http://127.0.0.1:${port}`);
    return holder.receiver;
  }

  /** The requests that reached `path`. */
  at(path: string): Received[] {
    return this.requests.filter((r) => r.path === path);
  }

  /** Polls until `check` returns a value other than undefined, or fails after `timeoutMs`. */
  async until<T>(check: () => T | undefined, timeoutMs = 10_000, what = 'the webhook'): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = check();
      if (value !== undefined) return value;
      if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** Verifies a request as a provider would, with the reference `standardwebhooks` package; throws when it fails. */
export function verified(request: Received, secret: string): Record<string, unknown> {
  const headers = {
    'webhook-id': String(request.headers['webhook-id']),
    'webhook-timestamp': String(request.headers['webhook-timestamp']),
    'webhook-signature': String(request.headers['webhook-signature']),
  };
  return new Webhook(secret).verify(request.body, headers) as Record<string, unknown>;
}
