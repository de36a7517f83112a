import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Express } from 'express';

/** Limits that keep slow or idle clients from holding the server (issue 5's hardening). */
export const SERVER_LIMITS = {
  /** A client must send its headers within this time. */
  headersTimeoutMs: 10_000,
  /** ...and its whole request (1 MiB body at most) within this time. */
  requestTimeoutMs: 30_000,
  /** Idle keep-alive connections are kept this long (longer than typical proxies' 60 s). */
  keepAliveTimeoutMs: 65_000,
  maxHeadersCount: 100,
} as const;

export interface RunningServer {
  server: Server;
  port: number;
  /** Stops accepting, lets requests in flight finish (up to `graceMs`), then closes every connection. */
  close(graceMs?: number): Promise<void>;
}

export async function listen(app: Express, port: number, host?: string): Promise<RunningServer> {
  const server = createServer(
    {
      headersTimeout: SERVER_LIMITS.headersTimeoutMs,
      requestTimeout: SERVER_LIMITS.requestTimeoutMs,
      keepAliveTimeout: SERVER_LIMITS.keepAliveTimeoutMs,
      maxHeaderSize: 16 * 1024,
    },
    app,
  );
  server.maxHeadersCount = SERVER_LIMITS.maxHeadersCount;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return {
    server,
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
