export { refusedAddress } from './url/address-rules';
export {
  DnsWebhookUrlPolicy,
  systemResolver,
  type Resolver,
  type UrlPolicyOptions,
} from './url/webhook-url-policy';
export { signWebhook, type SignedHeaders } from './signing/webhook-signer';
export {
  HttpWebhookSender,
  type SendRequest,
  type SendResult,
  type WebhookSender,
} from './delivery/http-sender';
export { parseRetryAfter } from './delivery/retry-after';
export { decideAfterAttempt, type AttemptDecision, type RetryPolicyOptions } from './delivery/retry-policy';
export { DeliveryRecords, type ClaimedDelivery } from './delivery/delivery-records';
export { DeliveryAttempts } from './delivery/delivery-attempts';
export {
  deliveryStack,
  type DeliveryDeps,
  type DeliverySettings,
  type DeliveryStack,
} from './delivery/delivery-stack';
export { OutboxRelay, type RelayBatch } from './relay/outbox-relay';
export { OutboxListener } from './relay/outbox-listener';
export { DeliveryQueue, DELIVERY_QUEUE, deliveryJobId, type DeliveryJobData } from './queue/delivery-queue';
export { DeliveryWorker } from './queue/delivery-worker';
export { QueuedDelivery, type QueuedDeliveryOptions } from './queue/queued-delivery';
export { InProcessDelivery, type InProcessDeliveryOptions } from './in-process/in-process-delivery';
