import { toWebhookEventBody } from '@pis/contract';
import { Instant, liveSecrets, type WebhookEndpoint, type WebhookQueries } from '@pis/domain';
import type { Logger } from 'pino';
import { signWebhook } from '../signing/webhook-signer';
import type { ClaimedDelivery, DeliveryRecords } from './delivery-records';
import type { SendResult, WebhookSender } from './http-sender';
import { decideAfterAttempt, type AttemptDecision, type RetryPolicyOptions } from './retry-policy';

export interface DeliveryAttemptsDeps {
  records: DeliveryRecords;
  /** Reads the endpoint with its secrets decrypted (perhaps cached: `forget` drops it). */
  endpoints: Pick<WebhookQueries, 'findEndpoint'> & { forget?(locationId: string): void };
  sender: WebhookSender;
  retry: RetryPolicyOptions;
  logger: Logger;
}

/** Why a claimed delivery must not be sent at all any more; null when it may be. */
function refusal(endpoint: WebhookEndpoint | null, delivery: ClaimedDelivery): string | null {
  if (endpoint === null || endpoint.id !== delivery.endpointId) {
    return 'the webhook endpoint this delivery was made for no longer exists';
  }
  if (endpoint.disabledAt !== null) {
    return 'the webhook endpoint is disabled (it answered 410 Gone); registering it again re-enables it';
  }
  if (!endpoint.events.includes(delivery.event.type)) {
    return `the webhook endpoint no longer subscribes to ${delivery.event.type}`;
  }
  return null;
}

/**
 * One attempt of a claimed delivery, whoever scheduled it (the BullMQ worker or the
 * in-process poller): check the endpoint still wants it, sign at send time with every
 * live secret, POST, and record the attempt with what follows it.
 */
export class DeliveryAttempts {
  constructor(private readonly deps: DeliveryAttemptsDeps) {}

  async run(delivery: ClaimedDelivery): Promise<AttemptDecision> {
    const { records, endpoints, sender, retry, logger } = this.deps;
    const endpoint = await endpoints.findEndpoint(delivery.locationId);
    const attemptedAt = new Date();
    const refused = refusal(endpoint, delivery);
    let result: SendResult;
    let decision: AttemptDecision;
    if (refused !== null || endpoint === null) {
      result = { status: null, durationMs: 0, error: refused, retryAfterMs: null };
      decision = { kind: 'failed', disableEndpoint: false };
    } else {
      const body = JSON.stringify(toWebhookEventBody(delivery.event));
      const secrets = liveSecrets(endpoint, Instant.fromDate(attemptedAt)).map((s) => s.secret);
      const headers = signWebhook(delivery.event.id, body, secrets, attemptedAt);
      result = await sender.send({ url: endpoint.url, body, headers: { ...headers } });
      decision = decideAfterAttempt(delivery.attemptCount + 1, result, retry);
    }
    await records.recordAttempt(delivery, attemptedAt, result, decision);
    if (decision.kind === 'failed' && decision.disableEndpoint) endpoints.forget?.(delivery.locationId);
    logger.info(
      {
        deliveryId: delivery.id,
        eventId: delivery.event.id,
        eventType: delivery.event.type,
        attempt: delivery.attemptCount + 1,
        responseStatus: result.status,
        durationMs: result.durationMs,
        error: result.error,
        outcome: decision.kind,
        retryInMs: decision.kind === 'retry' ? decision.delayMs : undefined,
        endpointDisabled: decision.kind === 'failed' && decision.disableEndpoint ? true : undefined,
      },
      'webhook attempt',
    );
    return decision;
  }
}
