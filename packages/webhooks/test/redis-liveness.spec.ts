import { createServer, connect, type Server, type Socket } from 'node:net';
import { createRedis, RedisLiveness, type RedisClient } from '../src';
import { REDIS_URL, testPrefix } from '@pis/testing/webhooks';
import { testLogger } from './support/test-logger';

/**
 * A TCP proxy in front of the test's Redis that can stop passing bytes on the connections it
 * has (both ways), as a connection does whose commands a server leaves unanswered: the
 * client's socket stays open and it sees no error. Connections made after that pass again.
 */
class StallingProxy {
  private readonly sockets = new Set<Socket>();
  private stalled = new Set<Socket>();

  private constructor(private readonly server: Server) {}

  static async start(target: URL): Promise<StallingProxy> {
    const server = createServer();
    const proxy = new StallingProxy(server);
    server.on('connection', (client) => {
      const upstream = connect(Number(target.port || 6379), target.hostname);
      for (const [from, to] of [
        [client, upstream],
        [upstream, client],
      ] as const) {
        from.on('data', (chunk) => {
          if (!proxy.stalled.has(client)) to.write(chunk);
        });
        from.on('close', () => to.destroy());
        from.on('error', () => to.destroy());
      }
      proxy.sockets.add(client);
      client.on('close', () => proxy.sockets.delete(client));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return proxy;
  }

  get url(): string {
    const address = this.server.address();
    if (address === null || typeof address === 'string') throw new Error('the proxy is not listening');
    return `redis://127.0.0.1:${address.port}`;
  }

  /** The connections open now pass nothing more, either way. */
  stall(): void {
    this.stalled = new Set(this.sockets);
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** A probe of `client` on `key` every `intervalMs`, calling it stuck after `timeoutMs` unanswered. */
const livenessOf = (client: RedisClient, key: string, intervalMs: number, timeoutMs: number) =>
  new RedisLiveness(client, { key, intervalMs, timeoutMs, logger: testLogger, client: 'test' });

describe('A Redis connection that stops answering', () => {
  let proxy: StallingProxy;
  let redis: RedisClient;

  beforeEach(async () => {
    proxy = await StallingProxy.start(new URL(REDIS_URL));
    redis = createRedis({ url: proxy.url }, { maxRetriesPerRequest: null });
    redis.on('error', () => undefined);
  });
  afterEach(async () => {
    redis.disconnect();
    await proxy.close();
  });

  it('When its commands go unanswered while it says ready, then the probe reconnects it and the waiting command is answered', async () => {
    const key = `${testPrefix('liveness')}:k`;
    const liveness = livenessOf(redis, key, 100, 400);
    await redis.set(key, 'before', 'PX', 60_000);
    liveness.start();
    try {
      proxy.stall();
      // Sent on the stalled connection: without the probe it would wait for ever.
      const waiting = redis.set(key, 'after', 'PX', 60_000);

      await expect(waiting).resolves.toBe('OK');
      expect(liveness.resetCount).toBeGreaterThanOrEqual(1);
      expect(redis.status).toBe('ready');
      expect(await redis.get(key)).toBe('after');
    } finally {
      liveness.stop();
    }
  });

  it('When the connection answers, then the probe leaves it alone', async () => {
    const key = `${testPrefix('liveness')}:k`;
    const liveness = livenessOf(redis, key, 50, 2_000);
    await redis.ping();

    for (let i = 0; i < 5; i++) expect(await liveness.probe()).toBe(false);
    expect(liveness.resetCount).toBe(0);
  });

  it('When the process itself was held up past the timeout while the answer came in, then the probe does not call the connection stuck', async () => {
    // Straight to Redis: the proxy lives in this process, and its relaying would take turns of
    // the blocked loop too.
    const direct = createRedis({ url: REDIS_URL }, { maxRetriesPerRequest: null });
    const key = `${testPrefix('liveness')}:k`;
    const liveness = livenessOf(direct, key, 50, 200);
    await direct.ping();
    liveness.start();
    try {
      const probing = liveness.probe();
      // The event loop blocked for twice the timeout: its timer is due before the socket is read.
      const until = Date.now() + 400;
      while (Date.now() < until);

      expect(await probing).toBe(false);
      expect(liveness.resetCount).toBe(0);
    } finally {
      liveness.stop();
      direct.disconnect();
    }
  });

  it('When the probe has been stopped (the client is closing), then an unanswered probe does not reconnect it', async () => {
    const key = `${testPrefix('liveness')}:k`;
    const liveness = livenessOf(redis, key, 50, 300);
    await redis.ping();
    liveness.start();
    liveness.stop();
    proxy.stall();

    expect(await liveness.probe()).toBe(false);
    expect(liveness.resetCount).toBe(0);
  });
});
