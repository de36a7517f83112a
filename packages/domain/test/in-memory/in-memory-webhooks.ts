import type {
  Clock,
  DeliveryListQuery,
  EndpointScope,
  WebhookDelivery,
  WebhookDeliveryRepository,
  WebhookEndpoint,
  WebhookEndpointRepository,
  WebhookQueries,
} from '../../src';
import { detach } from './detach';
import { compareIds, type Draft, type Reader } from './state';

/** Endpoints keyed by id; a location's singleton is the one marked so. */
export class InMemoryWebhookEndpointRepository implements WebhookEndpointRepository {
  constructor(private readonly draft: Draft) {}

  private all(): WebhookEndpoint[] {
    return [...this.draft.map('endpoints').values()];
  }

  async lock(locationId: string): Promise<WebhookEndpoint | null> {
    return detach(this.all().find((e) => e.locationId === locationId && e.singleton) ?? null);
  }

  async lockScope(scope: EndpointScope): Promise<number> {
    return this.all().filter((e) => inScope(e, scope)).length;
  }

  async lockById(scope: EndpointScope, id: string): Promise<WebhookEndpoint | null> {
    const endpoint = this.draft.get('endpoints', id);
    return endpoint !== undefined && inScope(endpoint, scope) ? detach(endpoint) : null;
  }

  async save(endpoint: WebhookEndpoint): Promise<void> {
    const existing = this.draft.get('endpoints', endpoint.id);
    this.draft.put(
      'endpoints',
      endpoint.id,
      detach(
        existing === undefined
          ? endpoint
          : {
              ...endpoint,
              locationId: existing.locationId,
              providerId: existing.providerId,
              singleton: existing.singleton,
              createdAt: existing.createdAt,
            },
      ),
    );
  }

  async delete(locationId: string): Promise<boolean> {
    const singleton = this.all().find((e) => e.locationId === locationId && e.singleton);
    return singleton !== undefined && this.draft.remove('endpoints', singleton.id);
  }

  async deleteById(scope: EndpointScope, id: string): Promise<boolean> {
    const endpoint = this.draft.get('endpoints', id);
    return endpoint !== undefined && inScope(endpoint, scope) && this.draft.remove('endpoints', id);
  }
}

const inScope = (e: WebhookEndpoint, scope: EndpointScope) =>
  e.locationId === scope.locationId && e.providerId === scope.providerId;

/**
 * Redelivery keeps the attempts made so far (they are history), makes the delivery due now
 * on the store's clock under the next generation, and starts its retry schedule over.
 */
export class InMemoryWebhookDeliveryRepository implements WebhookDeliveryRepository {
  constructor(
    private readonly draft: Draft,
    private readonly clock: Clock,
  ) {}

  async requestRedelivery(locationId: string, deliveryId: string): Promise<boolean> {
    const delivery = this.draft.get('deliveries', deliveryId);
    if (!delivery || delivery.locationId !== locationId) return false;
    const now = this.clock.now();
    this.draft.put('deliveries', deliveryId, {
      ...delivery,
      status: 'pending',
      nextAttemptAt: now,
      updatedAt: now,
    });
    const run = this.draft.get('deliveryRuns', deliveryId) ?? { generation: 0, queuedGeneration: null };
    this.draft.put('deliveryRuns', deliveryId, { ...run, generation: run.generation + 1, attemptCount: 0 });
    return true;
  }
}

export class InMemoryWebhookQueries implements WebhookQueries {
  constructor(private readonly read: () => Reader) {}

  async findEndpoint(locationId: string): Promise<WebhookEndpoint | null> {
    const all = [...this.read().map('endpoints').values()];
    return detach(all.find((e) => e.locationId === locationId && e.singleton) ?? null);
  }

  async findEndpointById(id: string): Promise<WebhookEndpoint | null> {
    return detach(this.read().map('endpoints').get(id) ?? null);
  }

  async listEndpoints(scope: EndpointScope): Promise<WebhookEndpoint[]> {
    return [...this.read().map('endpoints').values()]
      .filter((e) => inScope(e, scope))
      .sort((a, b) => a.createdAt.compare(b.createdAt) || compareIds(a.id, b.id))
      .map(detach);
  }

  async listDeliveries(q: DeliveryListQuery): Promise<WebhookDelivery[]> {
    const { locationId, status, after, limit } = q;
    const endpoints = this.read().map('endpoints');
    return (
      [...this.read().map('deliveries').values()]
        .filter(
          (d) =>
            (locationId === null || d.locationId === locationId) && (status === null || d.status === status),
        )
        .filter((d) => q.endpointId == null || d.endpointId === q.endpointId)
        .filter((d) => q.providerId == null || endpoints.get(d.endpointId)?.providerId === q.providerId)
        // A provider's log at a location lists its endpoints there; with no location, its provider-scope ones.
        .filter((d) => q.providerId == null || endpoints.get(d.endpointId)?.locationId === locationId)
        .filter((d) => after === null || newestFirst(d, after) > 0)
        .sort(newestFirst)
        .slice(0, limit)
        .map(detach)
    );
  }
}

const newestFirst = (
  a: Pick<WebhookDelivery, 'createdAt' | 'id'>,
  b: Pick<WebhookDelivery, 'createdAt' | 'id'>,
) => b.createdAt.compare(a.createdAt) || compareIds(b.id, a.id);
