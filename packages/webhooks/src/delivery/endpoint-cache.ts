import type { WebhookEndpoint, WebhookQueries } from '@pis/domain';

/**
 * The endpoint each attempt checks and signs with, read from PostgreSQL (and decrypted) at
 * most once per `ttlMs` per endpoint: during a burst every delivery to an endpoint would
 * otherwise read the same row. A change (new URL, deleted, disabled, rotated secret) is
 * seen within `ttlMs`; a rotated-out secret keeps signing for 24 h, so no receiver notices.
 */
export class EndpointCache implements Pick<WebhookQueries, 'findEndpointById'> {
  private readonly entries = new Map<string, { until: number; endpoint: Promise<WebhookEndpoint | null> }>();

  constructor(
    private readonly inner: Pick<WebhookQueries, 'findEndpointById'>,
    private readonly ttlMs = 1_000,
    private readonly now: () => number = Date.now,
  ) {}

  findEndpointById(id: string): Promise<WebhookEndpoint | null> {
    const hit = this.entries.get(id);
    if (hit && hit.until > this.now()) return hit.endpoint;
    const endpoint = this.inner.findEndpointById(id);
    this.entries.set(id, { until: this.now() + this.ttlMs, endpoint });
    // A failed read is not cached: the next attempt reads again.
    endpoint.catch(() => this.entries.delete(id));
    if (this.entries.size > 10_000) this.evictExpired();
    return endpoint;
  }

  /** Forget an endpoint at once (this process changed it, e.g. disabled it on a 410). */
  forget(id: string): void {
    this.entries.delete(id);
  }

  private evictExpired(): void {
    const now = this.now();
    for (const [key, entry] of this.entries) if (entry.until <= now) this.entries.delete(key);
  }
}
