import type { AccessQueries, ApiKeyRecord, Location } from '@pis/domain';

type ActiveKey = Pick<ApiKeyRecord, 'id' | 'locationId'>;

/**
 * Keeps key lookups and locations off the hot path. Only live keys are cached (by hash,
 * so the cache never holds a key), for `ttlMs` at most; `forgetKey` drops a revoked key
 * at once (the revoking process calls it directly, other processes on a notification),
 * and the TTL bounds how long a missed notification could keep one alive. Locations
 * never change once created, so they are cached for good.
 */
export class CachedAccessQueries implements AccessQueries {
  private readonly keys = new Map<string, { key: ActiveKey; until: number }>();
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
}
