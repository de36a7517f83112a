import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import { createRedis, redisErrorCounts, type RedisClient } from '../src/redis/redis-client';

const countOf = (client: string) => redisErrorCounts().find((c) => c.client === client)?.count ?? 0;

async function until(what: string, check: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** A TCP port that accepts and at once drops every connection: each connect is an error. */
async function droppingPort(): Promise<{ port: number; server: Server }> {
  const server = createServer((socket) => socket.destroy());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as AddressInfo).port, server };
}

describe('createRedis counts its errors (pis_redis_errors_total)', () => {
  const clients: RedisClient[] = [];
  const servers: Server[] = [];
  afterEach(async () => {
    for (const c of clients.splice(0)) c.disconnect();
    for (const s of servers.splice(0)) await new Promise((r) => s.close(r));
  });

  it('When a single Redis cannot be reached, then its errors count under its client name and no other', async () => {
    const { port, server } = await droppingPort();
    servers.push(server);
    const before = countOf('spec-other');
    const redis = createRedis(
      { url: `redis://127.0.0.1:${port}` },
      { retryStrategy: () => 20, maxRetriesPerRequest: 0 },
      'spec-single',
    );
    // The user of the client handles its errors; the count is only an observer.
    const seen: Error[] = [];
    redis.on('error', (error: Error) => seen.push(error));
    clients.push(redis);

    await until('two errors', () => countOf('spec-single') >= 2);

    // Every error event counted once (the count's listener runs first, in the same emit).
    expect(countOf('spec-single')).toBe(seen.length);
    expect(countOf('spec-other')).toBe(before);
  });

  it('When no seed node of a Redis Cluster answers, then its errors count under its client name', async () => {
    const { port, server } = await droppingPort();
    servers.push(server);
    const redis = createRedis(
      { clusterNodes: [{ host: '127.0.0.1', port }] },
      { retryStrategy: () => 20 },
      'spec-cluster',
    );
    redis.on('error', () => undefined);
    clients.push(redis);

    await until('an error', () => countOf('spec-cluster') >= 1);

    expect(countOf('spec-cluster')).toBeGreaterThanOrEqual(1);
  });
});
