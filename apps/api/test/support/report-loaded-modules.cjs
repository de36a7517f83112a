// Preloaded (`node --require`) into a process a test starts: at exit it writes how many
// OpenTelemetry SDK and instrumentation modules the process had loaded, counted in
// require.cache, so a test can tell that tracing left them unloaded when no exporter was
// configured. `@opentelemetry/api` is not counted: prom-client loads that no-op facade
// itself (for exemplars), with or without tracing.
process.on('exit', () => {
  const loaded = Object.keys(require.cache).filter(
    (path) => /@opentelemetry[\\/]/.test(path) && !/@opentelemetry[\\/]api[\\/]/.test(path),
  ).length;
  process.stderr.write(`opentelemetry modules loaded: ${loaded}\n`);
});
