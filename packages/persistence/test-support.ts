/** Test support for packages whose tests need the real schema: `@pis/persistence/test-support`. */
export * from './src/test-support';
export { LocalReplica } from './src/local-replica';
export { PG_BIN, ServerDirectory } from './src/server-directory';
