/**
 * The in-memory adapters of the domain's ports, the system doubles (clock, ids, hashing, URL
 * policy, test webhooks) and the scenarios the use-case tests start from:
 * `@pis/domain/in-memory`. They live beside the domain so that its use-case tests run on them
 * without depending on `@pis/testing`, which depends on the domain; `@pis/testing` re-exports
 * them and adds the webhook pipeline's in-memory adapters (`@pis/ports`).
 */
export * from './test/in-memory/create-in-memory-deps';
export { InMemoryDomainStore } from './test/in-memory/in-memory-store';
export { InMemoryIdempotencyStore } from './test/in-memory/in-memory-idempotency';
export { detach } from './test/in-memory/detach';
export * from './test/in-memory/state';
export * from './test/system/manual-clock';
export * from './test/system/ids';
export * from './test/system/crypto-adapters';
export * from './test/system/url-policy';
export * from './test/system/recording-webhook-tests';
export * from './test/scenarios/published-location';
