import type { WebhookEndpoint } from '@pis/domain';
import { EndpointCache } from '../src/delivery/endpoint-cache';

describe('EndpointCache', () => {
  const endpoint = (url: string) => ({ url }) as unknown as WebhookEndpoint;

  function setup(ttlMs = 1_000) {
    let now = 0;
    let reads = 0;
    let current: WebhookEndpoint | null = endpoint('https://a.example/hooks');
    const cache = new EndpointCache(
      {
        findEndpointById: async () => {
          reads++;
          return current;
        },
      },
      ttlMs,
      () => now,
    );
    return {
      cache,
      reads: () => reads,
      advance: (ms: number) => (now += ms),
      change: (next: WebhookEndpoint | null) => (current = next),
    };
  }

  it('When attempts to one endpoint follow each other within the TTL, then the endpoint is read once', async () => {
    const s = setup();
    await s.cache.findEndpointById('ep-1');
    s.advance(999);
    await s.cache.findEndpointById('ep-1');
    expect(s.reads()).toBe(1);
  });

  it('When the TTL has passed, then a change to the endpoint is seen', async () => {
    const s = setup();
    await s.cache.findEndpointById('ep-1');
    s.change(null);
    s.advance(1_000);
    expect(await s.cache.findEndpointById('ep-1')).toBeNull();
    expect(s.reads()).toBe(2);
  });

  it('When the endpoint is forgotten (disabled by this process), then the next attempt reads it again', async () => {
    const s = setup();
    await s.cache.findEndpointById('ep-1');
    s.change(endpoint('https://b.example/hooks'));
    s.cache.forget('ep-1');
    expect((await s.cache.findEndpointById('ep-1'))?.url).toBe('https://b.example/hooks');
  });

  it('When the TTL is 0, then every attempt reads the endpoint', async () => {
    const s = setup(0);
    await s.cache.findEndpointById('ep-1');
    await s.cache.findEndpointById('ep-1');
    expect(s.reads()).toBe(2);
  });

  it('When a read fails, then it is not cached', async () => {
    let calls = 0;
    const cache = new EndpointCache({
      findEndpointById: async () => {
        calls++;
        if (calls === 1) throw new Error('database away');
        return null;
      },
    });
    await expect(cache.findEndpointById('ep-1')).rejects.toThrow('database away');
    await new Promise((r) => setImmediate(r));
    expect(await cache.findEndpointById('ep-1')).toBeNull();
  });
});
