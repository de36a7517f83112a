export { startTracing, stopTracing, traceExportErrorSource, tracingRequested } from './start-tracing';
