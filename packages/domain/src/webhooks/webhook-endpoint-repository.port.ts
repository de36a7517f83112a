import type { DeliveryCursor, DeliveryStatus, WebhookDelivery } from './webhook-delivery';
import type { WebhookEndpoint } from './webhook-endpoint';

/**
 * Where an endpoint is addressed: one provider's endpoints at one location, or (`locationId`
 * null) the provider's provider-scope endpoints, which receive every connected location's events.
 */
export interface EndpointScope {
  locationId: string | null;
  providerId: string;
}

/** Used inside a unit of work. */
export interface WebhookEndpointRepository {
  /** Reads and locks the location's singleton endpoint (its own provider's scope is locked when there is none). */
  lock(locationId: string): Promise<WebhookEndpoint | null>;
  /**
   * Locks the scope until the unit of work ends (two creations in one scope serialise) and
   * answers how many endpoints it holds.
   */
  lockScope(scope: EndpointScope): Promise<number>;
  /** Reads and locks one endpoint of the scope; null when the scope holds no such id. */
  lockById(scope: EndpointScope, id: string): Promise<WebhookEndpoint | null>;
  /** Inserts, or updates the endpoint of that id. */
  save(endpoint: WebhookEndpoint): Promise<void>;
  /** The singleton endpoint; false when there was none. */
  delete(locationId: string): Promise<boolean>;
  /** false when the scope holds no such id. */
  deleteById(scope: EndpointScope, id: string): Promise<boolean>;
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
  /** null: the deliveries to the provider's provider-scope endpoints, at every location (`providerId` set). */
  locationId: string | null;
  /** Only the deliveries to this provider's endpoints; null for every endpoint (the operator). */
  providerId?: string | null;
  /** Only the deliveries to this endpoint. */
  endpointId?: string | null;
  status: DeliveryStatus | null;
  after: DeliveryCursor | null;
  limit: number;
}

/** Read side, outside any transaction. */
export interface WebhookQueries {
  /** The location's singleton endpoint. */
  findEndpoint(locationId: string): Promise<WebhookEndpoint | null>;
  /** Any endpoint by id (a delivery's). */
  findEndpointById(id: string): Promise<WebhookEndpoint | null>;
  /** The scope's endpoints, oldest first. */
  listEndpoints(scope: EndpointScope): Promise<WebhookEndpoint[]>;
  /** Newest first (createdAt, then id, descending), strictly after `after`, at most `limit`. */
  listDeliveries(query: DeliveryListQuery): Promise<WebhookDelivery[]>;
}

export interface WebhookUrlPolicy {
  /** null when the URL may receive webhooks, else the reason it may not (a sentence). */
  check(url: string): Promise<string | null>;
}
