/**
 * Test support for tests that drive webhook delivery against the real schema, imported by name
 * as `@pis/webhooks/test-support`. It stays in this package, not in `@pis/testing`, because it
 * opens a migrated database through `@pis/persistence`, which itself tests with `@pis/testing`.
 */
export * from './test/support/harness';
export * from './test/support/redis-cluster';
