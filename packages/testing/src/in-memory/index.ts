export * from './create-in-memory-deps';
export { InMemoryStore } from './in-memory-store';
export { inMemoryDeliveryPipeline, type PipelineHost } from './in-memory-delivery-pipeline';
export { detach, InMemoryDomainStore, InMemoryIdempotencyStore } from '@pis/domain/in-memory';
