import type { WebhookEndpoint } from './webhook-endpoint';

export interface WebhookEndpointRepository {
  find(locationId: string): Promise<WebhookEndpoint | null>;
  save(endpoint: WebhookEndpoint): Promise<void>;
  /** false when there was none. */
  delete(locationId: string): Promise<boolean>;
}

export interface WebhookUrlPolicy {
  /** null when the URL may receive webhooks, else the reason it may not (a sentence). */
  check(url: string): Promise<string | null>;
}
