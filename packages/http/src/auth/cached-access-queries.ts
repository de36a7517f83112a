import type {
  AccessQueries,
  ActiveKey,
  ConnectionCursor,
  Location,
  LocationConnection,
  NewestFirstCursor,
  Provider,
  ProviderConnection,
} from '@pis/domain';

/**
 * Keeps key lookups, active connections and locations off the hot path. Only live keys and
 * active connections are cached (keys by hash, so the cache never holds a key), for `ttlMs`
 * at most; `forgetKey` and `forgetConnection` drop a revoked one at once (the revoking process
 * calls them directly, other processes on a notification), and the TTL bounds how long a
 * missed notification could keep one alive. A refusal is never cached, so a grant or a new key
 * works at once. Locations never change once created, so they are cached for good. Everything
 * else passes through.
 */
export class CachedAccessQueries implements AccessQueries {
  private readonly keys = new Map<string, { key: ActiveKey; until: number }>();
  private readonly connections = new Map<string, number>();
  private readonly locations = new Map<string, Location>();

  constructor(
    private readonly inner: AccessQueries,
    private readonly ttlMs = 10_000,
    private readonly maxKeys = 10_000,
    private readonly now: () => number = Date.now,
  ) {}

  async findActiveKeyByHash(hash: string): Promise<ActiveKey | null> {
    const hit = this.keys.get(hash);
    if (hit && hit.until > this.now()) return hit.key;
    this.keys.delete(hash);
    const key = await this.inner.findActiveKeyByHash(hash);
    if (key) {
      if (this.keys.size >= this.maxKeys) this.keys.clear();
      this.keys.set(hash, { key, until: this.now() + this.ttlMs });
    }
    return key;
  }

  forgetKey(keyId: string): void {
    for (const [hash, entry] of this.keys) if (entry.key.id === keyId) this.keys.delete(hash);
  }

  forgetAllKeys(): void {
    this.keys.clear();
    this.connections.clear();
  }

  async isConnected(providerId: string, locationId: string): Promise<boolean> {
    const pair = connectionKey(providerId, locationId);
    const until = this.connections.get(pair);
    if (until !== undefined && until > this.now()) return true;
    this.connections.delete(pair);
    const connected = await this.inner.isConnected(providerId, locationId);
    if (connected) {
      if (this.connections.size >= this.maxKeys) this.connections.clear();
      this.connections.set(pair, this.now() + this.ttlMs);
    }
    return connected;
  }

  forgetConnection(providerId: string, locationId: string): void {
    this.connections.delete(connectionKey(providerId, locationId));
  }

  async findLocation(id: string): Promise<Location | null> {
    const cached = this.locations.get(id);
    if (cached) return cached;
    const location = await this.inner.findLocation(id);
    if (location) this.locations.set(id, location);
    return location;
  }

  countLocations(): Promise<number> {
    return this.inner.countLocations();
  }

  findProvider(id: string): Promise<Provider | null> {
    return this.inner.findProvider(id);
  }

  listProviders(after: NewestFirstCursor | null, limit: number): Promise<Provider[]> {
    return this.inner.listProviders(after, limit);
  }

  listLocations(after: NewestFirstCursor | null, limit: number): Promise<Location[]> {
    return this.inner.listLocations(after, limit);
  }

  listLocationConnections(locationId: string): Promise<LocationConnection[]> {
    return this.inner.listLocationConnections(locationId);
  }

  listProviderConnections(
    providerId: string,
    after: ConnectionCursor | null,
    limit: number,
  ): Promise<ProviderConnection[]> {
    return this.inner.listProviderConnections(providerId, after, limit);
  }
}

/** How a connection is named in the cache and in the revocation notifications. */
export const connectionKey = (providerId: string, locationId: string): string =>
  `${providerId}:${locationId}`;
