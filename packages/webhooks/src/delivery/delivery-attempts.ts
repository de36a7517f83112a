import { toWebhookEventBody } from '@pis/contract';
import {
  eventVisibleTo,
  failingReason,
  inTraceSpan,
  Instant,
  liveSecrets,
  providerReader,
  type OpenSpan,
  type WebhookEndpoint,
  type WebhookQueries,
} from '@pis/domain';
import {
  type AttemptFollowUp,
  type AttemptLog,
  type EndpointHealthPolicy,
  type ClaimedDelivery,
} from '@pis/ports';
import type { Logger } from 'pino';
import { signWebhook } from '../signing/webhook-signer';
import type { AttemptPace } from './endpoint-slots';
import type { SendResult, WebhookSender } from './http-sender';
import { decideAfterAttempt, type RetryPolicyOptions } from './retry-policy';

/**
 * The event as the endpoint's reader may see it: the provider the endpoint belongs to.
 * Another provider's reservation id reads null in its body, as in the feed and the snapshot
 * (docs/decisions/0212-isolation-between-providers.md).
 */
const bodyFor = (endpoint: WebhookEndpoint, event: ClaimedDelivery['event']) =>
  eventVisibleTo(providerReader(endpoint.providerId), event);

/** One attempt as it was made and recorded, for whoever watches (metrics). */
export interface AttemptObservation {
  /** The delivery as claimed: its event, generation and the attempts made before this one. */
  delivery: ClaimedDelivery;
  /** When the attempt started (this process's clock). */
  attemptedAt: Date;
  result: SendResult;
  decision: AttemptFollowUp;
}

/** Told of every recorded attempt; it must not throw (a throw is logged and ignored). */
export interface AttemptObserver {
  onAttempt(observation: AttemptObservation): void;
}

export interface DeliveryAttemptsDeps {
  log: AttemptLog;
  /** `WEBHOOK_DISABLE_AFTER_HOURS`: an endpoint failing every attempt this long is disabled. */
  disableAfterHours: number;
  /** A successful attempt slower than this counts as the endpoint struggling. */
  slowAfterMs: number;
  /** Reads the endpoint with its secrets decrypted (perhaps cached: `forget` drops it). */
  endpoints: Pick<WebhookQueries, 'findEndpointById'> & { forget?(endpointId: string): void };
  sender: WebhookSender;
  retry: RetryPolicyOptions;
  logger: Logger;
  observer?: AttemptObserver;
}

/** Why a claimed delivery must not be sent at all any more; null when it may be. */
function refusal(endpoint: WebhookEndpoint | null, delivery: ClaimedDelivery): string | null {
  if (endpoint === null || endpoint.id !== delivery.endpointId) {
    return 'the webhook endpoint this delivery was made for no longer exists';
  }
  if (endpoint.disabledAt !== null) {
    return `the webhook endpoint is disabled (${endpoint.disabledReason ?? 'by the service'}); registering it again re-enables it`;
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
  private readonly health: EndpointHealthPolicy;

  constructor(private readonly deps: DeliveryAttemptsDeps) {
    this.health = {
      disableAfterFailingMs: deps.disableAfterHours * 3_600_000,
      failingReason: failingReason(deps.disableAfterHours),
    };
  }

  /**
   * The decision that follows the attempt, and whether the endpoint kept up (2xx within half
   * the timeout). With tracing on the attempt is a span under the trace of the write that
   * raised the event (its POST the HTTP client span within it).
   */
  run(delivery: ClaimedDelivery): Promise<{ decision: AttemptFollowUp; pace: AttemptPace }> {
    const attributes = {
      'pis.delivery.id': delivery.id,
      'pis.endpoint.id': delivery.endpointId,
      'pis.event.id': delivery.event.id,
      'pis.event.type': delivery.event.type,
      'pis.attempt': delivery.attemptCount + 1,
    };
    return inTraceSpan(
      'webhook attempt',
      delivery.event.traceContext,
      attributes,
      (span) => this.attempt(delivery, span),
      'consumer',
    );
  }

  private async attempt(
    delivery: ClaimedDelivery,
    span: OpenSpan,
  ): Promise<{ decision: AttemptFollowUp; pace: AttemptPace }> {
    const { log, endpoints, sender, retry, logger } = this.deps;
    let endpoint = await endpoints.findEndpointById(delivery.endpointId);
    let refused = refusal(endpoint, delivery);
    if (refused !== null && endpoints.forget !== undefined) {
      // A refusal ends the delivery for good: never on a cached read (the endpoint may have
      // been re-enabled or changed since), only on the endpoint as it is now.
      endpoints.forget(delivery.endpointId);
      endpoint = await endpoints.findEndpointById(delivery.endpointId);
      refused = refusal(endpoint, delivery);
    }
    const attemptedAt = new Date();
    let result: SendResult;
    let decision: AttemptFollowUp;
    if (refused !== null || endpoint === null) {
      result = { status: null, durationMs: 0, error: refused, retryAfterMs: null };
      decision = { kind: 'failed', disableEndpoint: false };
    } else {
      // Signed over the body this endpoint's provider may see (another's reservation id reads null).
      const body = JSON.stringify(toWebhookEventBody(bodyFor(endpoint, delivery.event)));
      const secrets = liveSecrets(endpoint, Instant.fromDate(attemptedAt)).map((s) => s.secret);
      const headers = signWebhook(delivery.event.id, body, secrets, attemptedAt);
      result = await sender.send({ url: endpoint.url, body, headers: { ...headers } });
      decision = decideAfterAttempt(delivery.attemptCount + 1, result, retry);
    }
    const { endpointDisabled } = await log.record(
      delivery,
      {
        attemptedAt: Instant.fromDate(attemptedAt),
        responseStatus: result.status,
        durationMs: result.durationMs,
        error: result.error,
      },
      decision,
      refused === null ? this.health : null,
    );
    if (endpointDisabled) endpoints.forget?.(delivery.endpointId);
    span.setAttributes({
      'http.response.status_code': result.status ?? undefined,
      'pis.attempt.outcome': decision.kind,
    });
    if (decision.kind !== 'succeeded') span.fail(result.error ?? `status ${result.status}`);
    this.observe({ delivery, attemptedAt, result, decision });
    // A failed attempt (retried or not) is worth an operator's eye; a delivered one is routine.
    logger[decision.kind === 'succeeded' ? 'info' : 'warn'](
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
        endpointDisabled: endpointDisabled ? true : undefined,
      },
      'webhook attempt',
    );
    return {
      decision,
      pace: { healthy: decision.kind === 'succeeded' && result.durationMs <= this.deps.slowAfterMs },
    };
  }

  private observe(observation: AttemptObservation): void {
    try {
      this.deps.observer?.onAttempt(observation);
    } catch (err) {
      this.deps.logger.warn({ err, deliveryId: observation.delivery.id }, 'the attempt observer failed');
    }
  }
}
