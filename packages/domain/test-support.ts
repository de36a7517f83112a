/**
 * The test-data builders, one family for every package's tests: `@pis/domain/test-support`
 * (re-exported by `@pis/testing`). They live beside the domain so that the domain's own tests
 * use them without depending on `@pis/testing`, which depends on the domain.
 */
export * from './test/builders';
