import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A loopback webhook receiver in the benchmark process: answers 204 at once and notes when
 * each `webhook-id` (the event id) first arrived, by the wall clock (`Date.now()`, the clock
 * PostgreSQL's timestamps use too). Signatures are not checked here: the test suite verifies
 * them with the reference verifier; here they would only add receiver CPU.
 */
export class WebhookReceiver {
  readonly received = new Map<string, number>();
  duplicates = 0;
  private server: Server | null = null;
  /** Answers held back while the receiver stalls (`hold`), sent by `release`. */
  private held: (() => void)[] | null = null;
  private waiting: { ids: readonly string[]; cursor: number; resolve: () => void } | null = null;

  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      const id = String(req.headers['webhook-id']);
      if (this.received.has(id)) this.duplicates++;
      else this.received.set(id, Date.now());
      req.resume();
      req.on('end', () => {
        const answer = () => res.writeHead(204).end();
        if (this.held) this.held.push(answer);
        else answer();
      });
      if (this.waiting && this.received.size % 100 === 0) this.check();
    });
    this.server.keepAliveTimeout = 65_000;
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hooks`;
  }

  /** Stops answering (requests are still noted as they arrive): a receiver that stalls. */
  hold(): void {
    this.held ??= [];
  }

  /** Answers every held request and answers at once from now on. */
  release(): void {
    const held = this.held ?? [];
    this.held = null;
    for (const answer of held) answer();
  }

  /** Resolves once every id has arrived; rejects after `timeoutMs` naming how many are missing. */
  async all(ids: readonly string[], timeoutMs: number): Promise<void> {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        clearInterval(poll);
        this.waiting = null;
        const missing = ids.filter((id) => !this.received.has(id)).length;
        reject(new Error(`${missing} of ${ids.length} webhooks did not arrive within ${timeoutMs} ms`));
      }, timeoutMs);
      const poll = setInterval(() => this.check(), 50);
      this.waiting = {
        ids,
        cursor: 0,
        resolve: () => {
          clearTimeout(timer);
          clearInterval(poll);
          this.waiting = null;
          resolve();
        },
      };
      this.check();
    });
  }

  /** Ids mostly arrive in order: the cursor moves past the arrived ones and stops at the first missing. */
  private check(): void {
    const waiting = this.waiting;
    if (waiting === null) return;
    while (waiting.cursor < waiting.ids.length && this.received.has(waiting.ids[waiting.cursor]!))
      waiting.cursor++;
    if (waiting.cursor === waiting.ids.length) waiting.resolve();
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise((resolve) => this.server?.close(resolve));
  }
}
