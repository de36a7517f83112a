import type {
  Clock,
  DeliveryListQuery,
  WebhookDelivery,
  WebhookDeliveryRepository,
  WebhookEndpoint,
  WebhookEndpointRepository,
  WebhookQueries,
} from '@pis/domain';
import { detach } from './detach';
import { compareIds, type Draft, type Reader } from './state';

/** One endpoint per location, keyed by the location. */
export class InMemoryWebhookEndpointRepository implements WebhookEndpointRepository {
  constructor(private readonly draft: Draft) {}

  async lock(locationId: string): Promise<WebhookEndpoint | null> {
    return detach(this.draft.get('endpoints', locationId) ?? null);
  }

  async save(endpoint: WebhookEndpoint): Promise<void> {
    this.draft.put('endpoints', endpoint.locationId, detach(endpoint));
  }

  async delete(locationId: string): Promise<boolean> {
    return this.draft.remove('endpoints', locationId);
  }
}

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
    return detach(this.read().map('endpoints').get(locationId) ?? null);
  }

  async listDeliveries({ locationId, status, after, limit }: DeliveryListQuery): Promise<WebhookDelivery[]> {
    return [...this.read().map('deliveries').values()]
      .filter((d) => d.locationId === locationId && (status === null || d.status === status))
      .filter((d) => after === null || newestFirst(d, after) > 0)
      .sort(newestFirst)
      .slice(0, limit)
      .map(detach);
  }
}

const newestFirst = (
  a: Pick<WebhookDelivery, 'createdAt' | 'id'>,
  b: Pick<WebhookDelivery, 'createdAt' | 'id'>,
) => b.createdAt.compare(a.createdAt) || compareIds(b.id, a.id);
