import http from 'node:http';
import https from 'node:https';
import { performance } from 'node:perf_hooks';
import { BlockedAddressError, guardedLookup } from '../url/guarded-lookup';
import type { DnsWebhookUrlPolicy } from '../url/webhook-url-policy';
import { parseRetryAfter } from './retry-after';

/** What one attempt gave; `error` is a sentence, null exactly when the receiver answered 2xx. */
export interface SendResult {
  status: number | null;
  durationMs: number;
  error: string | null;
  retryAfterMs: number | null;
}

export interface SendRequest {
  url: string;
  body: string;
  headers: Record<string, string>;
}

export interface WebhookSender {
  send(request: SendRequest): Promise<SendResult>;
}

class AttemptTimeout extends Error {}

/** A receiver's answer is not read beyond this; it carries no meaning for us. */
const MAX_RESPONSE_BYTES = 64 * 1024;

/**
 * POSTs a signed body. The URL policy runs again on every attempt: scheme and IP literals
 * before connecting, and host names on the addresses the socket connects to (the agents'
 * `lookup`), so a receiver cannot rebind its name to an internal address. Redirects are
 * not followed (a 3xx is a failed attempt). The timeout covers connecting, sending and
 * the response head.
 */
export class HttpWebhookSender implements WebhookSender {
  private readonly httpAgent: http.Agent;
  private readonly httpsAgent: https.Agent;

  constructor(
    private readonly policy: DnsWebhookUrlPolicy,
    private readonly timeoutMs: number,
    private readonly userAgent = 'pis-webhooks/1.0',
  ) {
    const lookup = guardedLookup((address) => policy.refusal(address));
    this.httpAgent = new http.Agent({ keepAlive: true, lookup });
    this.httpsAgent = new https.Agent({ keepAlive: true, lookup });
  }

  send({ url, body, headers }: SendRequest): Promise<SendResult> {
    const checked = this.policy.checkWithoutDns(url);
    if (!checked.ok)
      return Promise.resolve({ status: null, durationMs: 0, error: checked.reason, retryAfterMs: null });
    const target = checked.url;
    const payload = Buffer.from(body, 'utf8');
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);

    return new Promise<SendResult>((resolve) => {
      let settled = false;
      const settle = (result: SendResult) => {
        if (!settled) {
          settled = true;
          resolve(result);
        }
      };
      const client = target.protocol === 'https:' ? https : http;
      const request = client.request(target, {
        method: 'POST',
        agent: target.protocol === 'https:' ? this.httpsAgent : this.httpAgent,
        headers: {
          ...headers,
          'content-type': 'application/json',
          'content-length': String(payload.length),
          'user-agent': this.userAgent,
        },
      });
      const timer = setTimeout(() => request.destroy(new AttemptTimeout()), this.timeoutMs);
      request.on('response', (response) => {
        const status = response.statusCode ?? 0;
        const ok = status >= 200 && status < 300;
        settle({
          status,
          durationMs: elapsed(),
          error: ok ? null : `the receiver answered ${status}`,
          retryAfterMs: ok ? null : parseRetryAfter(response.headers['retry-after'], Date.now()),
        });
        let read = 0;
        response.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read > MAX_RESPONSE_BYTES) response.destroy();
        });
        response.on('close', () => clearTimeout(timer));
        response.on('error', () => undefined);
      });
      request.on('error', (error) => {
        clearTimeout(timer);
        settle({
          status: null,
          durationMs: elapsed(),
          error: describe(error, this.timeoutMs),
          retryAfterMs: null,
        });
      });
      request.end(payload);
    });
  }

  /** Closes idle keep-alive sockets. */
  close(): void {
    this.httpAgent.destroy();
    this.httpsAgent.destroy();
  }
}

function describe(error: Error & { code?: string }, timeoutMs: number): string {
  if (error instanceof AttemptTimeout) return `no response within ${timeoutMs} ms`;
  if (error instanceof BlockedAddressError) return error.message;
  switch (error.code) {
    case 'ECONNREFUSED':
      return 'the receiver refused the connection (ECONNREFUSED)';
    case 'ECONNRESET':
      return 'the receiver closed the connection before answering (ECONNRESET)';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `the receiver's host could not be resolved (${error.code})`;
    default:
      return `the request failed: ${error.message}${error.code ? ` (${error.code})` : ''}`;
  }
}
