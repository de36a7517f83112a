import type { Instant } from '../kernel/instant';
import type { WebhookEndpoint } from './webhook-endpoint';

/** What one test delivery gave; `delivered` exactly when the receiver answered 2xx in time. */
export interface WebhookTestResult {
  delivered: boolean;
  /** The receiver's HTTP status; null when no answer came (timeout, refused, blocked URL). */
  status: number | null;
  durationMs: number;
  /** Why it was not delivered, in a sentence; null when it was. */
  error: string | null;
}

export interface WebhookTestMessage {
  /** The `webhook-id` of this one message. */
  id: string;
  at: Instant;
}

export interface WebhookTestSender {
  /**
   * Sends `{type: "webhook.test", timestamp, data: {}}` to the endpoint once, signed and sent
   * as every delivery is (its live secrets, the URL rules, the timeout), and resolves with the
   * outcome. Nothing is recorded and nothing is retried.
   */
  sendTest(endpoint: WebhookEndpoint, message: WebhookTestMessage): Promise<WebhookTestResult>;
}
