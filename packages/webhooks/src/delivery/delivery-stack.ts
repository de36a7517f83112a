import type { WebhookQueries } from '@pis/domain';
import type { DeliveryPipelineStore } from '@pis/ports';
import type { Logger } from 'pino';
import { DnsWebhookUrlPolicy, systemResolver, type Resolver } from '../url/webhook-url-policy';
import { DeliveryAttempts, type AttemptObserver } from './delivery-attempts';
import { EndpointCache } from './endpoint-cache';
import { HttpWebhookSender } from './http-sender';

/** How deliveries are attempted: the retry schedule, the timeout and the URL policy. */
export interface DeliverySettings {
  retryDelaysMs: readonly number[];
  timeoutMs: number;
  allowPrivateUrls: boolean;
  allowInsecureUrls: boolean;
  /** An endpoint whose every attempt failed for this long is disabled (default 120). */
  disableAfterHours?: number;
  /** How long an attempt may use an endpoint read by an earlier one (default 1 s; 0: read each time). */
  endpointCacheMs?: number;
}

/** The configuration's webhook variables (`WEBHOOK_*`) as delivery settings. */
export function deliverySettingsFrom(config: {
  webhookRetryDelaysMs: readonly number[];
  webhookTimeoutMs: number;
  webhookAllowPrivateUrls: boolean;
  webhookAllowInsecureUrls: boolean;
  webhookDisableAfterHours: number;
}): DeliverySettings {
  return {
    retryDelaysMs: config.webhookRetryDelaysMs,
    timeoutMs: config.webhookTimeoutMs,
    allowPrivateUrls: config.webhookAllowPrivateUrls,
    allowInsecureUrls: config.webhookAllowInsecureUrls,
    disableAfterHours: config.webhookDisableAfterHours,
  };
}

/** The URL policy of these settings: the one that registration checks and every attempt applies. */
export function urlPolicyFor(
  settings: DeliverySettings,
  resolver: Resolver = systemResolver,
): DnsWebhookUrlPolicy {
  return new DnsWebhookUrlPolicy(
    { allowPrivate: settings.allowPrivateUrls, allowInsecure: settings.allowInsecureUrls },
    resolver,
  );
}

export interface DeliveryDeps {
  /** What the pipeline stores through (persistence's, or the in-memory twin). */
  store: DeliveryPipelineStore;
  /** Reads an endpoint with its secrets decrypted. */
  endpoints: Pick<WebhookQueries, 'findEndpointById'>;
  logger: Logger;
  settings: DeliverySettings;
  /** The URL policy to apply (default: `urlPolicyFor(settings, resolver)`). */
  policy?: DnsWebhookUrlPolicy;
  resolver?: Resolver;
  /** Told of every recorded attempt (the apps count them for their metrics). */
  observer?: AttemptObserver;
}

/** What sends and records attempts, the same in the worker and in-process. */
export interface DeliveryStack {
  sender: HttpWebhookSender;
  attempts: DeliveryAttempts;
  /**
   * How long a claimed delivery is held by the process attempting it: the attempt's timeout
   * twice over plus 5 s for recording it. A process that dies mid-attempt delays the
   * delivery by at most this long.
   */
  leaseMs: number;
  timeoutMs: number;
  /** A successful attempt slower than this (half the timeout) counts as its endpoint struggling. */
  slowAfterMs: number;
}

export function deliveryStack({
  store,
  endpoints,
  logger,
  settings,
  policy,
  resolver,
  observer,
}: DeliveryDeps): DeliveryStack {
  const sender = new HttpWebhookSender(policy ?? urlPolicyFor(settings, resolver), settings.timeoutMs);
  const slowAfterMs = settings.timeoutMs / 2;
  const attempts = new DeliveryAttempts({
    log: store.attempts,
    disableAfterHours: settings.disableAfterHours ?? 120,
    slowAfterMs,
    endpoints: new EndpointCache(endpoints, settings.endpointCacheMs ?? 1_000),
    sender,
    retry: { delaysMs: settings.retryDelaysMs },
    logger,
    observer,
  });
  return {
    sender,
    attempts,
    leaseMs: 2 * settings.timeoutMs + 5_000,
    timeoutMs: settings.timeoutMs,
    slowAfterMs,
  };
}
