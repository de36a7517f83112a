import type { WebhookEndpoint, WebhookTestMessage, WebhookTestResult, WebhookTestSender } from '../../src';

/**
 * The in-memory twin of the test-delivery sender: records what would have been sent and
 * answers `answer` (a 204 unless told otherwise). The real one (packages/webhooks) signs and
 * POSTs; its own tests run it against a receiver that verifies with `standardwebhooks`.
 */
export class RecordingWebhookTests implements WebhookTestSender {
  readonly sent: { endpoint: WebhookEndpoint; message: WebhookTestMessage }[] = [];
  answer: WebhookTestResult = { delivered: true, status: 204, durationMs: 1, error: null };

  async sendTest(endpoint: WebhookEndpoint, message: WebhookTestMessage): Promise<WebhookTestResult> {
    this.sent.push({ endpoint, message });
    return { ...this.answer };
  }
}
