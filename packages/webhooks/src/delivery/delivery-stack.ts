import type { WebhookQueries } from '@pis/domain';
import type { Logger } from 'pino';
import type { DataSource } from 'typeorm';
import { DnsWebhookUrlPolicy, systemResolver, type Resolver } from '../url/webhook-url-policy';
import { DeliveryAttempts } from './delivery-attempts';
import { DeliveryRecords } from './delivery-records';
import { EndpointCache } from './endpoint-cache';
import { HttpWebhookSender } from './http-sender';

/** The delivery settings of decisions sections 7 and 9 (`loadConfig` reads them). */
export interface DeliverySettings {
  retryDelaysMs: readonly number[];
  timeoutMs: number;
  allowPrivateUrls: boolean;
  allowInsecureUrls: boolean;
  /** How long an attempt may use an endpoint read by an earlier one (default 1 s; 0: read each time). */
  endpointCacheMs?: number;
}

export interface DeliveryDeps {
  db: DataSource;
  /** Reads an endpoint with its secrets decrypted (persistence's `WebhookQueries`). */
  endpoints: Pick<WebhookQueries, 'findEndpoint'>;
  logger: Logger;
  settings: DeliverySettings;
  resolver?: Resolver;
}

/** What sends and records attempts, the same in the worker and in-process. */
export interface DeliveryStack {
  policy: DnsWebhookUrlPolicy;
  sender: HttpWebhookSender;
  records: DeliveryRecords;
  attempts: DeliveryAttempts;
  /**
   * How long a claimed delivery is held by the process attempting it: the attempt's timeout
   * twice over plus 5 s for recording it. A process that dies mid-attempt delays the
   * delivery by at most this long.
   */
  leaseMs: number;
}

export function deliveryStack({ db, endpoints, logger, settings, resolver }: DeliveryDeps): DeliveryStack {
  const policy = new DnsWebhookUrlPolicy(
    { allowPrivate: settings.allowPrivateUrls, allowInsecure: settings.allowInsecureUrls },
    resolver ?? systemResolver,
  );
  const sender = new HttpWebhookSender(policy, settings.timeoutMs);
  const leaseMs = 2 * settings.timeoutMs + 5_000;
  const records = new DeliveryRecords(db, leaseMs);
  const attempts = new DeliveryAttempts({
    records,
    endpoints: new EndpointCache(endpoints, settings.endpointCacheMs ?? 1_000),
    sender,
    retry: { delaysMs: settings.retryDelaysMs },
    logger,
  });
  return { policy, sender, records, attempts, leaseMs };
}
