export { refusedAddress } from './url/address-rules';
export type { SlotUsage } from './delivery/endpoint-slots';
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
export { decideAfterAttempt, type RetryPolicyOptions } from './delivery/retry-policy';
export {
  DeliveryAttempts,
  type AttemptObservation,
  type AttemptObserver,
} from './delivery/delivery-attempts';
export { SignedTestSender } from './test-delivery/signed-test-sender';
export {
  deliverySettingsFrom,
  deliveryStack,
  urlPolicyFor,
  type DeliveryDeps,
  type DeliverySettings,
  type DeliveryStack,
} from './delivery/delivery-stack';
export { relayLoop, type RelayLoopOptions } from './relay/relay-loop';
export { DeliveryQueue, DELIVERY_QUEUE, deliveryJobId, type DeliveryJobData } from './queue/delivery-queue';
export { BullMqScheduler, type BullMqJob } from './queue/bullmq-scheduler';
export { LeasePoller, type PolledJob } from './in-process/lease-poller';
export { DeliveryEngine, type DeliveryEngineOptions } from './delivery/delivery-engine';
export type { DelayReason, DeliveryScheduler, ScheduledJob } from './delivery/scheduler';
export { QueuedDelivery, type QueuedDeliveryOptions } from './queue/queued-delivery';
export { RetentionLoop, type RetentionLoopOptions } from './retention/retention-loop';
export {
  idempotencyRetentionLoop,
  type IdempotencyRetentionLoop,
  type IdempotencyRetentionOptions,
} from './retention/idempotency-retention-loop';
export { InProcessDelivery, type InProcessDeliveryOptions } from './in-process/in-process-delivery';
export {
  createRedis,
  isClusterTarget,
  redisErrorCounts,
  slotPrefix,
  type RedisClient,
  type RedisNode,
  type RedisTarget,
} from './redis/redis-client';
export { RedisLiveness, type RedisLivenessOptions } from './redis/redis-liveness';
