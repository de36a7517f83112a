import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** 1 for the first request carrying this `webhook-id`, 2 for its first retry... */
  nth: number;
}

export interface Reply {
  status: number;
  headers?: Record<string, string>;
  /** Answer only after this long (a receiver slower than the sender's timeout). */
  delayMs?: number;
}

/** Answers each request; the default answers 204 to everything. */
export type Responder = (request: ReceivedRequest) => Reply | Promise<Reply>;

/**
 * A provider's webhook endpoint on loopback: records every request as received (raw body
 * and headers) and answers as the test says. Deduplicates by `webhook-id` the way the
 * contract tells providers to.
 */
export class Receiver {
  readonly requests: ReceivedRequest[] = [];
  private readonly perId = new Map<string, number>();
  private waiters: (() => void)[] = [];
  respond: Responder = () => ({ status: 204 });

  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(path = '/hooks'): Promise<Receiver> {
    let receiver: Receiver | null = null;
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () =>
        receiver!.handle(req.method ?? '', req.url ?? '', req.headers, Buffer.concat(chunks), res),
      );
    });
    server.keepAliveTimeout = 60_000;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    receiver = new Receiver(server, `http://127.0.0.1:${port}${path}`);
    return receiver;
  }

  /** Distinct `webhook-id`s received. */
  ids(): Set<string> {
    return new Set(this.requests.map((r) => String(r.headers['webhook-id'])));
  }

  /** The parsed bodies, one per distinct `webhook-id` (the first copy), each verified with `secret`. */
  verifiedBodies(secret: string): unknown[] {
    const seen = new Set<string>();
    const bodies: unknown[] = [];
    for (const request of this.requests) {
      const id = String(request.headers['webhook-id']);
      if (seen.has(id)) continue;
      seen.add(id);
      bodies.push(verify(request, secret));
    }
    return bodies;
  }

  /** Resolves once `condition` holds (checked on every request), or rejects after `timeoutMs`. */
  async waitFor(
    condition: () => boolean,
    timeoutMs = 20_000,
    what = 'the receiver condition',
  ): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!condition()) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(left, 200));
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private handle(
    method: string,
    path: string,
    headers: IncomingHttpHeaders,
    body: Buffer,
    res: import('node:http').ServerResponse,
  ): void {
    const id = String(headers['webhook-id']);
    const nth = (this.perId.get(id) ?? 0) + 1;
    this.perId.set(id, nth);
    const request: ReceivedRequest = { method, path, headers, body: body.toString('utf8'), nth };
    this.requests.push(request);
    void Promise.resolve(this.respond(request)).then((reply) => {
      const answer = () => {
        if (!res.destroyed) res.writeHead(reply.status, reply.headers).end();
      };
      // A delayed answer never keeps the test process alive after the receiver closed.
      if (reply.delayMs) setTimeout(answer, reply.delayMs).unref();
      else answer();
    });
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }
}

/** The standardwebhooks package's verification, as a provider would run it. */
export function verify(request: ReceivedRequest, secret: string): unknown {
  const headers: Record<string, string> = {};
  for (const name of ['webhook-id', 'webhook-timestamp', 'webhook-signature']) {
    headers[name] = String(request.headers[name] ?? '');
  }
  return new Webhook(secret).verify(request.body, headers);
}
