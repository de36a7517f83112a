/** Test support for tests that run the worker as a child process: `@pis/testing/worker`. */
export * from './src/worker/worker-process';
