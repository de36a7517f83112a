import type { WebhookEndpoint, WebhookQueries } from '@pis/domain';

/**
 * The endpoint each attempt checks and signs with, read from PostgreSQL (and decrypted) at
 * most once per `ttlMs` per location: during a burst every delivery of a location would
 * otherwise read the same row. A change (new URL, deleted, disabled, rotated secret) is
 * seen within `ttlMs`; a rotated-out secret keeps signing for 24 h, so no receiver notices.
 */
export class EndpointCache implements Pick<WebhookQueries, 'findEndpoint'> {
  private readonly entries = new Map<string, { until: number; endpoint: Promise<WebhookEndpoint | null> }>();

  constructor(
    private readonly inner: Pick<WebhookQueries, 'findEndpoint'>,
    private readonly ttlMs = 1_000,
    private readonly now: () => number = Date.now,
  ) {}

  findEndpoint(locationId: string): Promise<WebhookEndpoint | null> {
    const hit = this.entries.get(locationId);
    if (hit && hit.until > this.now()) return hit.endpoint;
    const endpoint = this.inner.findEndpoint(locationId);
    this.entries.set(locationId, { until: this.now() + this.ttlMs, endpoint });
    // A failed read is not cached: the next attempt reads again.
    endpoint.catch(() => this.entries.delete(locationId));
    if (this.entries.size > 10_000) this.evictExpired();
    return endpoint;
  }

  /** Forget a location's endpoint at once (this process changed it, e.g. disabled it on a 410). */
  forget(locationId: string): void {
    this.entries.delete(locationId);
  }

  private evictExpired(): void {
    const now = this.now();
    for (const [key, entry] of this.entries) if (entry.until <= now) this.entries.delete(key);
  }
}
