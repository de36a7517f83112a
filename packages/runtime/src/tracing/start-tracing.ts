/**
 * Whether the `OTEL_*` environment asks for traces: an exporter named in
 * `OTEL_TRACES_EXPORTER` (other than `none`), or an OTLP endpoint (the exporter then defaults
 * to OTLP). `OTEL_SDK_DISABLED=true` turns it off whatever else is set.
 */
export function tracingRequested(env: NodeJS.ProcessEnv): boolean {
  if ((env['OTEL_SDK_DISABLED'] ?? '').trim().toLowerCase() === 'true') return false;
  const exporters = (env['OTEL_TRACES_EXPORTER'] ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  if (exporters.length > 0) return exporters.some((name) => name !== 'none');
  return Boolean(env['OTEL_EXPORTER_OTLP_ENDPOINT'] || env['OTEL_EXPORTER_OTLP_TRACES_ENDPOINT']);
}

let stop: (() => Promise<void>) | null = null;
/** What the SDK reported to its error handler since it started: nearly all failed exports. */
let exportErrors = 0;

/**
 * docs/reference/running.md#tracing: starts the OpenTelemetry SDK when the environment asks
 * for traces, before the app loads what it instruments (HTTP, express, pg, ioredis), and
 * answers whether it did. Otherwise nothing of OpenTelemetry is loaded: the SDK module is
 * imported here and only here.
 */
export async function startTracing(defaultServiceName: string, env = process.env): Promise<boolean> {
  if (stop !== null) return true;
  if (!tracingRequested(env)) return false;
  const { startOpenTelemetry } = await import('./otel-sdk');
  stop = startOpenTelemetry(defaultServiceName, () => exportErrors++);
  return true;
}

/** Exports the spans still buffered and stops the SDK (at shutdown); nothing when tracing is off. */
export async function stopTracing(): Promise<void> {
  const stopping = stop;
  stop = null;
  await stopping?.();
}

/**
 * `pis_trace_export_errors_total`'s source: the batches of spans the SDK failed to export
 * (collector refused, unreachable or too slow) and its other errors, counted since it
 * started; undefined while tracing is off (the metric is then left out).
 */
export function traceExportErrorSource(): (() => number) | undefined {
  return stop === null ? undefined : () => exportErrors;
}
