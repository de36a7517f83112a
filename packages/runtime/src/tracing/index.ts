export { startTracing, stopTracing, tracingRequested } from './start-tracing';
