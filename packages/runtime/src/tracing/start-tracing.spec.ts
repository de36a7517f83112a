import { startTracing, tracingRequested } from './start-tracing';

describe('tracingRequested (docs/reference/running.md#tracing)', () => {
  it.each([
    [{}, false],
    [{ OTEL_SERVICE_NAME: 'pis-api' }, false],
    [{ OTEL_TRACES_EXPORTER: 'none' }, false],
    [{ OTEL_TRACES_EXPORTER: 'none', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }, false],
    [{ OTEL_TRACES_EXPORTER: ' ' }, false],
    [{ OTEL_TRACES_EXPORTER: 'otlp' }, true],
    [{ OTEL_TRACES_EXPORTER: 'console' }, true],
    [{ OTEL_TRACES_EXPORTER: 'none,otlp' }, true],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }, true],
    [{ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://collector:4318/v1/traces' }, true],
    [{ OTEL_TRACES_EXPORTER: 'otlp', OTEL_SDK_DISABLED: 'true' }, false],
    [{ OTEL_TRACES_EXPORTER: 'otlp', OTEL_SDK_DISABLED: 'TRUE' }, false],
    [{ OTEL_TRACES_EXPORTER: 'otlp', OTEL_SDK_DISABLED: 'false' }, true],
  ])('When the environment is %j, then tracing is requested: %s', (env, requested) => {
    expect(tracingRequested(env)).toBe(requested);
  });

  it('When nothing asks for traces, then startTracing starts nothing and answers false', async () => {
    await expect(startTracing('pis-test', { OTEL_SERVICE_NAME: 'pis-test' })).resolves.toBe(false);
  });
});
