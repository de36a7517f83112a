/**
 * What the service's own code asks of tracing, without loading any of it (a port: the
 * OpenTelemetry SDK in @pis/runtime installs the adapter): the outbox stores
 * the active trace context with an event, the relay and each delivery attempt open a span
 * under the context stored with their event. Until `startTracing` installs the OpenTelemetry
 * SDK (only when an `OTEL_*` exporter is configured) these answer "no context" and run the
 * work as it is, at the cost of one null check (docs/decisions/0230-trace-propagation.md).
 */

/** A trace context as W3C Trace Context headers carry it: `traceparent` and perhaps `tracestate`. */
export type StoredTraceContext = Readonly<Record<string, string>>;

/** Attributes a span may carry. */
export type SpanAttributes = Record<string, string | number | boolean | undefined>;

/** The span the work runs in: it may add what it learnt on the way (a status code). */
export interface OpenSpan {
  setAttributes(attributes: SpanAttributes): void;
  /** Marks the span failed, with a short reason. */
  fail(reason: string): void;
  /** The span's own context, to be stored or carried so later work continues under it. */
  context(): StoredTraceContext | null;
}

/** What the SDK module installs. */
export interface Tracing {
  currentContext(): StoredTraceContext | null;
  inSpan<T>(
    name: string,
    parent: StoredTraceContext | null | undefined,
    attributes: SpanAttributes,
    work: (span: OpenSpan) => Promise<T>,
    kind?: 'internal' | 'consumer' | 'producer',
  ): Promise<T>;
  startSpan(
    name: string,
    parent: StoredTraceContext | null | undefined,
    attributes: SpanAttributes,
    kind?: 'internal' | 'consumer' | 'producer',
  ): StartedSpan;
  /**
   * Names the HTTP request being served by its route pattern (its server span's `http.route`),
   * then runs the rest of the request (`rest`, Express's `next`). `request` is the request
   * being served (Node's `IncomingMessage`), for what the SDK module kept about it.
   */
  routeMatched(route: string, rest: () => void, request?: object): void;
}

/** A span opened without making it active: whoever opened it ends it. */
export interface StartedSpan extends OpenSpan {
  end(): void;
}

let installed: Tracing | null = null;

/** Called by the SDK module once it started; never when tracing is off. */
export function installTracing(tracing: Tracing | null): void {
  installed = tracing;
}

/** True once the SDK is started in this process. */
export function tracingEnabled(): boolean {
  return installed !== null;
}

/** The active trace context to store with what is written now; null when tracing is off or nothing is traced. */
export function currentTraceContext(): StoredTraceContext | null {
  return installed === null ? null : installed.currentContext();
}

const NO_SPAN: OpenSpan = { setAttributes() {}, fail() {}, context: () => null };

/**
 * Runs `work` in a span that is a child of `parent` (a stored context), or of the active
 * context when there is none; with tracing off, runs `work` alone.
 */
export function inTraceSpan<T>(
  name: string,
  parent: StoredTraceContext | null | undefined,
  attributes: SpanAttributes,
  work: (span: OpenSpan) => Promise<T>,
  kind?: 'internal' | 'consumer' | 'producer',
): Promise<T> {
  return installed === null ? work(NO_SPAN) : installed.inSpan(name, parent, attributes, work, kind);
}

/**
 * Opens a span under `parent` for work that is not one call (a relay batch's hand-off of
 * many events, each of its own trace); null with tracing off.
 */
export function startTraceSpan(
  name: string,
  parent: StoredTraceContext | null | undefined,
  attributes: SpanAttributes,
  kind?: 'internal' | 'consumer' | 'producer',
): StartedSpan | null {
  return installed === null ? null : installed.startSpan(name, parent, attributes, kind);
}

/**
 * The HTTP layer says which route pattern (`/api/provider/v1/reservations/:externalId`, never
 * the raw path) serves the current request, so its server span is named after it, and hands
 * over the rest of the request (`rest`), which the tracing adapter may run in a context of its
 * own; with tracing off, just `rest()`.
 */
export function traceRouteMatched(route: string, rest: () => void, request?: object): void {
  if (installed === null) rest();
  else installed.routeMatched(route, rest, request);
}
