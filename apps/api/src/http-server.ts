import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { HttpError } from '@pis/http';
import type { Express } from 'express';

/** Limits that keep slow or idle clients from holding the server (decision 0072). */
export interface ServerLimits {
  /** A client must send its headers within this time. */
  headersTimeoutMs: number;
  /** ...and its whole request (1 MiB body at most) within this time. */
  requestTimeoutMs: number;
  /** Idle keep-alive connections are kept this long (longer than typical proxies' 60 s). */
  keepAliveTimeoutMs: number;
  /**
   * How often Node looks for connections past the two timeouts above: a timeout is enforced
   * up to this much late (Node's default, 30 s, would let a slow client stay 40 s, not 10).
   */
  connectionsCheckingIntervalMs: number;
  /** The whole header section (request line included); beyond it Node answers 431. */
  maxHeaderSize: number;
  /** Headers beyond this count are dropped by Node (not refused). */
  maxHeadersCount: number;
}

export const SERVER_LIMITS: Readonly<ServerLimits> = Object.freeze({
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 65_000,
  connectionsCheckingIntervalMs: 1_000,
  maxHeaderSize: 16 * 1024,
  maxHeadersCount: 100,
});

export interface RunningServer {
  server: Server;
  /** The address bound, e.g. `127.0.0.1` or `::`. */
  address: string;
  port: number;
  /** Stops accepting, lets requests in flight finish (up to `graceMs`), then closes every connection. */
  close(graceMs?: number): Promise<void>;
}

/** `limits` is for tests that need short timeouts; production always runs with SERVER_LIMITS. */
export async function listen(
  app: Express,
  port: number,
  host?: string,
  limits: Readonly<ServerLimits> = SERVER_LIMITS,
): Promise<RunningServer> {
  const server = createServer(
    {
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      keepAliveTimeout: limits.keepAliveTimeoutMs,
      connectionsCheckingInterval: limits.connectionsCheckingIntervalMs,
      maxHeaderSize: limits.maxHeaderSize,
    },
    app,
  );
  server.maxHeadersCount = limits.maxHeadersCount;
  server.on('clientError', clientErrorAnswer(limits));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return {
    server,
    address: (server.address() as AddressInfo).address,
    port: (server.address() as AddressInfo).port,
    close: (graceMs = 10_000) =>
      new Promise<void>((resolve) => {
        const force = setTimeout(() => server.closeAllConnections(), graceMs);
        server.close(() => {
          clearTimeout(force);
          resolve();
        });
        // Idle keep-alive sockets would otherwise hold close() open until they time out.
        server.closeIdleConnections();
      }),
  };
}

/**
 * What Node answers itself, before the app sees a request (a timeout, headers too large,
 * bytes that are not HTTP), in the API's error envelope rather than Node's bare status
 * line (decision 0072). Mirrors Node's own handler otherwise: nothing is written when the
 * connection is gone or a response has already started on it, and the connection closes.
 */
function clientErrorAnswer(limits: Readonly<ServerLimits>) {
  const answers: Record<string, [number, string, string]> = {
    ERR_HTTP_REQUEST_TIMEOUT: [
      408,
      'Request Timeout',
      `the request was not received in full within ${limits.requestTimeoutMs / 1000} s (its headers within ${limits.headersTimeoutMs / 1000} s); send it again without pausing`,
    ],
    // Node answers this one 413 too (chunk extensions past its fixed 16 KiB).
    HPE_CHUNK_EXTENSIONS_OVERFLOW: [
      413,
      'Payload Too Large',
      'the chunk extensions of the body are too large',
    ],
    HPE_HEADER_OVERFLOW: [
      431,
      'Request Header Fields Too Large',
      `the request line and headers are larger than ${limits.maxHeaderSize / 1024} KiB`,
    ],
  };
  return (error: NodeJS.ErrnoException, socket: Duplex): void => {
    const inFlight = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (error.code !== 'ECONNRESET' && socket.writable && !inFlight?.headersSent) {
      const [status, reason, message] = answers[error.code ?? ''] ?? [
        400,
        'Bad Request',
        'the request is not valid HTTP/1.1',
      ];
      const body = JSON.stringify(new HttpError(status, 'validation_failed', message).toEnvelope());
      socket.write(
        `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\n` +
          `Content-Length: ${Buffer.byteLength(body)}\r\nX-Request-Id: ${randomUUID()}\r\n` +
          `Connection: close\r\n\r\n${body}`,
      );
    }
    socket.destroy(error);
  };
}
