import type { DeliveryCursor, DeliveryStatus, WebhookDelivery } from './webhook-delivery';
import type { WebhookEndpoint } from './webhook-endpoint';

/** Used inside a unit of work; one endpoint per location. */
export interface WebhookEndpointRepository {
  /** Reads and locks the location's endpoint. */
  lock(locationId: string): Promise<WebhookEndpoint | null>;
  save(endpoint: WebhookEndpoint): Promise<void>;
  /** false when there was none. */
  delete(locationId: string): Promise<boolean>;
}

/** Used inside a unit of work. */
export interface WebhookDeliveryRepository {
  /**
   * Makes a delivery pending again under a new generation, due at once on the store's clock,
   * with the retry schedule started over (an attempt of the old generation still in flight
   * is recorded as history only); false when the location holds no such delivery.
   */
  requestRedelivery(locationId: string, deliveryId: string): Promise<boolean>;
}

export interface DeliveryListQuery {
  locationId: string;
  status: DeliveryStatus | null;
  after: DeliveryCursor | null;
  limit: number;
}

/** Read side, outside any transaction. */
export interface WebhookQueries {
  findEndpoint(locationId: string): Promise<WebhookEndpoint | null>;
  /** Newest first (createdAt, then id, descending), strictly after `after`, at most `limit`. */
  listDeliveries(query: DeliveryListQuery): Promise<WebhookDelivery[]>;
}

export interface WebhookUrlPolicy {
  /** null when the URL may receive webhooks, else the reason it may not (a sentence). */
  check(url: string): Promise<string | null>;
}
