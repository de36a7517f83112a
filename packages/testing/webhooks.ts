/**
 * Test support for anything that receives or queues webhooks, imported by name as
 * `@pis/testing/webhooks`: a signing-aware receiver, a per-test Redis key prefix, and a
 * Redis server of a test's own (to stop and restart).
 */
export * from './src/webhooks/receiver';
export * from './src/webhooks/redis';
export * from './src/webhooks/own-redis';
