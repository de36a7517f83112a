import {
  liveSecrets,
  type WebhookEndpoint,
  type WebhookTestMessage,
  type WebhookTestResult,
  type WebhookTestSender,
} from '@pis/domain';
import type { WebhookTestEventBody } from '@pis/contract';
import type { WebhookSender } from '../delivery/http-sender';
import { signWebhook } from '../signing/webhook-signer';

/**
 * `POST /webhook-endpoint/test`: one `webhook.test` body, signed with the endpoint's live
 * secrets by the same signer and POSTed by the same sender (URL rules, timeout, no
 * redirects) as every delivery, so a receiver that passes it verifies real deliveries too.
 */
export class SignedTestSender implements WebhookTestSender {
  constructor(private readonly sender: WebhookSender) {}

  async sendTest(endpoint: WebhookEndpoint, message: WebhookTestMessage): Promise<WebhookTestResult> {
    const event: WebhookTestEventBody = { type: 'webhook.test', timestamp: message.at.toIso(), data: {} };
    const body = JSON.stringify(event);
    const secrets = liveSecrets(endpoint, message.at).map((s) => s.secret);
    const headers = signWebhook(message.id, body, secrets, message.at.toDate());
    const result = await this.sender.send({ url: endpoint.url, body, headers: { ...headers } });
    return {
      delivered: result.error === null,
      status: result.status,
      durationMs: result.durationMs,
      error: result.error,
    };
  }
}
