/** Runs a package's embedded (PGlite) suites from a Jest test: `@pis/testing/embedded`. */
export * from './src/embedded-jest';
