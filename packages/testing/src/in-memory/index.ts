export * from './create-in-memory-deps';
export { InMemoryStore } from './in-memory-store';
export { inMemoryDeliveryPipeline, type PipelineHost } from './in-memory-delivery-pipeline';
export { detach } from './detach';
export { InMemoryIdempotencyStore } from './in-memory-idempotency';
