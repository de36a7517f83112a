// The ports of the webhook pipeline's infrastructure: what the relay, the delivery engine,
// retention and the metrics need of storage. No use case of the domain needs them, so they
// live here rather than in `@pis/domain`; the persistence adapters and the in-memory ones of
// `@pis/testing` implement them.
export * from './delivery-pipeline.port';
export * from './pipeline-backlog.port';
export * from './event-retention.port';
