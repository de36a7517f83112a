export {
  createProviderClient,
  type CallOptions,
  type ProviderClient,
  type ProviderClientOptions,
  type SandboxClient,
  type WebhookEndpointsClient,
} from './provider-client';
export { type RetryOptions } from './retry';
export { readEventFeed, type EventFeedReaderOptions } from './event-feed';
export { ProviderApiError } from './provider-api-error';
export { verifyWebhook, WebhookVerificationError, type WebhookHeaders } from './webhook';
export type * from './schemas';
export type { paths, components, operations, webhooks } from './generated/openapi';
