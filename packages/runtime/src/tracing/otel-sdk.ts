import {
  context,
  createContextKey,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  TraceFlags,
  type Context,
  type Span,
  type SpanContext,
} from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import {
  getRPCMetadata,
  isTracingSuppressed,
  loggingErrorHandler,
  RPCType,
  setGlobalErrorHandler,
  unsuppressTracing,
} from '@opentelemetry/core';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { IORedisInstrumentation } from '@opentelemetry/instrumentation-ioredis';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { NodeSDK } from '@opentelemetry/sdk-node';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  ParentBasedSampler,
  RandomIdGenerator,
  SamplingDecision,
  TraceIdRatioBasedSampler,
  type IdGenerator,
  type Sampler,
} from '@opentelemetry/sdk-trace';
import { installTracing, type OpenSpan, type StoredTraceContext } from '@pis/domain';
import { EventEmitter } from 'node:events';
import { IncomingMessage, ServerResponse } from 'node:http';

/** Requests that start no trace: health probes and the Prometheus scrape. */
const UNTRACED_PATHS = new Set(['/healthz', '/readyz', '/metrics']);

/**
 * The OpenTelemetry SDK, loaded by `startTracing` only when an exporter is configured: this
 * module (and every `@opentelemetry` package) is never loaded otherwise. The exporter, its
 * protocol and endpoint, the sampler, the batch processor and the resource come from the
 * standard `OTEL_*` variables; traces only (metrics stay with Prometheus, logs with pino).
 */
export function startOpenTelemetry(defaultServiceName: string, onError: () => void): () => Promise<void> {
  process.env['OTEL_METRICS_EXPORTER'] ??= 'none';
  process.env['OTEL_LOGS_EXPORTER'] ??= 'none';
  const sampler = samplerFromEnv();
  const ids = new ChosenTraceIds();
  /** The span context of each incoming request the sampler dropped (its span never built). */
  const unsampledRequests = new WeakMap<object, SpanContext>();
  /** The context of each incoming request the sampler kept: its span's, with its RPC metadata. */
  const sampledRequests = new WeakMap<object, Context>();
  const sdk = new NodeSDK({
    serviceName: process.env['OTEL_SERVICE_NAME'] || defaultServiceName,
    sampler,
    idGenerator: ids,
    contextManager: new UnboundWhenSuppressed(),
    // No express instrumentation: even told to ignore middleware and router layers it wraps
    // every layer of every request, sampled or not (the largest part of what tracing cost the
    // write path). The route pattern names the server span through `routeMatched` instead.
    instrumentations: [
      new HttpInstrumentation({
        // Outgoing requests outside any trace (none of ours) are not worth a trace of their own.
        requireParentforOutgoingSpans: true,
        // Probes and scrapes come every few seconds and say nothing about a write: no trace.
        //
        // Every other request asks the sampler first (decision 0233): the instrumentation
        // computes a server span's attributes and binds the request and response to its
        // context before its own sampler call, which made most of what tracing cost a request
        // nobody records. A request the sampler drops is ignored here (no span, no attributes)
        // and keeps the span context it would have had, unsampled, for `routeMatched` to carry
        // on (stored with its events, the webhook's `traceparent`). A request it keeps goes on
        // as before, its root trace id the one the sampler saw, so the SDK's sampler (the same
        // one) decides the same.
        ignoreIncomingRequestHook: (request) => {
          ids.chosen = undefined;
          if (UNTRACED_PATHS.has((request.url ?? '').split('?')[0]!)) return true;
          const parent = propagation.extract(ROOT_CONTEXT, request.headers);
          const parentSpan = trace.getSpanContext(parent);
          const remote = parentSpan !== undefined && trace.isSpanContextValid(parentSpan);
          const traceId = remote ? parentSpan.traceId : ids.random.generateTraceId();
          const { decision } = sampler.shouldSample(
            parent,
            traceId,
            request.method ?? 'GET',
            SpanKind.SERVER,
            {},
            [],
          );
          if (decision !== SamplingDecision.NOT_RECORD) {
            if (!remote) ids.chosen = traceId;
            return false;
          }
          unsampledRequests.set(request, {
            traceId,
            spanId: ids.random.generateSpanId(),
            traceFlags: TraceFlags.NONE,
            ...(remote && parentSpan.traceState !== undefined ? { traceState: parentSpan.traceState } : {}),
          });
          return true;
        },
        // A request the sampler kept: called in its span's context, just after the span started.
        // Its request and response are not bound to that context (`UnboundWhenSuppressed`): the
        // route's hand-over finds the context by the request, as it finds a dropped one's.
        requestHook: (span, request) => {
          if (span.isRecording() && request instanceof IncomingMessage)
            sampledRequests.set(request, context.active());
        },
      }),
      // The background loops (relay, pollers, BullMQ's blocking reads) query PostgreSQL and Redis
      // all the time outside any request or attempt: those queries start no trace.
      new PgInstrumentation({
        requireParentSpan: true,
        // A checkout from the pool is no statement: its span would double the count for nothing.
        ignoreConnectSpans: true,
        // The instrumentation follows the current conventions (`db.system.name`); many backends
        // still key database spans on the older `db.system`, so each query span carries both.
        requestHook: (span) => {
          if (span.isRecording()) span.setAttribute('db.system', 'postgresql');
        },
      }),
      new IORedisInstrumentation({ requireParentSpan: true }),
    ],
  });
  sdk.start();
  // A batch that failed to export (refused, unreachable, timed out) reaches the SDK's global
  // error handler: counted for `pis_trace_export_errors_total`, then logged as by default.
  const log = loggingErrorHandler();
  setGlobalErrorHandler((error) => {
    onError();
    log(error);
  });
  const tracer = trace.getTracer('pis');
  const kinds = { internal: SpanKind.INTERNAL, consumer: SpanKind.CONSUMER, producer: SpanKind.PRODUCER };
  installTracing({
    currentContext: () => contextOf(withUnsampled(context.active())),
    inSpan(name, parent, attributes, work, kind = 'internal') {
      const base = parent ? propagation.extract(ROOT_CONTEXT, parent) : withUnsampled(context.active());
      return tracer.startActiveSpan(name, { kind: kinds[kind], attributes }, base, async (span) => {
        try {
          return await work(openSpan(span));
        } catch (error) {
          span.recordException(error as Error);
          span.setStatus({ code: SpanStatusCode.ERROR });
          throw error;
        } finally {
          span.end();
        }
      });
    },
    startSpan(name, parent, attributes, kind = 'internal') {
      const base = parent ? propagation.extract(ROOT_CONTEXT, parent) : withUnsampled(context.active());
      const span = tracer.startSpan(name, { kind: kinds[kind], attributes }, base);
      return { ...openSpan(span), end: () => span.end() };
    },
    // What the express instrumentation would do, without its wrapper around every layer of
    // every request: the http instrumentation names the server span `POST <route>` and sets
    // `http.route` from the request's RPC metadata when the response is done.
    //
    // A request whose trace is not sampled runs its handlers without its (non-recording)
    // span in the context: the pg and ioredis instrumentations (`requireParentSpan`) and the
    // http client's (`requireParentforOutgoingSpans`) then skip its statements, commands and
    // calls at once instead of building spans nobody records. Its span context stays in the
    // context under a key of ours, so what it stores with its events (`currentContext`) and
    // spans opened under it still carry its trace, unsampled, as before.
    //
    // A request the sampler kept runs its handlers in its span's context, found by the request
    // (its listeners are not bound to it, decision 0236); with no request, the active one.
    routeMatched(route, rest, request) {
      const dropped = request === undefined ? undefined : unsampledRequests.get(request);
      if (dropped !== undefined) {
        // Ignored by the http instrumentation (tracing suppressed): its statements and calls
        // make no spans either way; what it stores and opens carries its unsampled context.
        context.with(unsuppressTracing(context.active()).setValue(UNSAMPLED_REQUEST, dropped), rest);
        return;
      }
      const active = (request === undefined ? undefined : sampledRequests.get(request)) ?? context.active();
      const metadata = getRPCMetadata(active);
      if (metadata?.type === RPCType.HTTP) metadata.route = route;
      const span = trace.getSpan(active);
      if (span === undefined || span.isRecording()) return context.with(active, rest);
      context.with(trace.deleteSpan(active).setValue(UNSAMPLED_REQUEST, span.spanContext()), rest);
    },
  });
  return async () => {
    installTracing(null);
    await sdk.shutdown();
  };
}

/**
 * The sampler `OTEL_TRACES_SAMPLER` (and `OTEL_TRACES_SAMPLER_ARG`) names, as the SDK would
 * build it (default `parentbased_always_on`); built here so the incoming-request hook can ask it.
 */
function samplerFromEnv(): Sampler {
  const raw = process.env['OTEL_TRACES_SAMPLER_ARG'];
  const arg = raw === undefined || raw.trim() === '' ? NaN : Number(raw);
  const ratio = () => new TraceIdRatioBasedSampler(arg >= 0 && arg <= 1 ? arg : 1);
  switch ((process.env['OTEL_TRACES_SAMPLER'] ?? '').trim()) {
    case 'always_on':
      return new AlwaysOnSampler();
    case 'always_off':
      return new AlwaysOffSampler();
    case 'traceidratio':
      return ratio();
    case 'parentbased_always_off':
      return new ParentBasedSampler({ root: new AlwaysOffSampler() });
    case 'parentbased_traceidratio':
      return new ParentBasedSampler({ root: ratio() });
    default:
      return new ParentBasedSampler({ root: new AlwaysOnSampler() });
  }
}

/**
 * Random ids, except the next trace id once the incoming-request hook has chosen it (the one
 * it sampled with): the instrumentation starts the request's span right after the hook, in
 * the same synchronous call.
 */
class ChosenTraceIds implements IdGenerator {
  readonly random = new RandomIdGenerator();
  chosen: string | undefined;

  generateTraceId(): string {
    const chosen = this.chosen;
    this.chosen = undefined;
    return chosen ?? this.random.generateTraceId();
  }

  generateSpanId(): string {
    return this.random.generateSpanId();
  }
}

/**
 * The SDK's own context manager (`AsyncLocalStorage`), except that it binds no event emitter
 * to a context in which tracing is suppressed, and never an incoming request or its response.
 * The binding replaces six listener methods on the object and wraps each listener to run
 * inside the context. Where tracing is suppressed nothing run there is traced, so it would
 * change nothing but the cost: a probe, a scrape, every request the sampler dropped (decision
 * 0233), an exporter's own requests. An incoming request the sampler kept needs its context
 * only from the route on, and the route's hand-over (`routeMatched`) finds it by the request
 * (decision 0236). Binding only the kept ones also gave Node's HTTP code two shapes of request
 * and response (fewer of its functions are deoptimized now in a process that samples some
 * requests). Functions, outgoing requests and their responses are bound as before.
 */
export class UnboundWhenSuppressed extends AsyncLocalStorageContextManager {
  override bind<T>(context: Context, target: T): T {
    if (target instanceof EventEmitter && (isTracingSuppressed(context) || isIncomingExchange(target)))
      return target;
    return super.bind(context, target);
  }
}

/** An incoming request or its response (not an outgoing request's response, which has `req`). */
function isIncomingExchange(target: EventEmitter): boolean {
  return target instanceof ServerResponse || (target instanceof IncomingMessage && !('req' in target));
}

/** Where an unsampled request keeps its span context once its span is out of the context. */
const UNSAMPLED_REQUEST = createContextKey('pis unsampled request');

/** `active`, with an unsampled request's span context put back where it was set aside. */
function withUnsampled(active: Context): Context {
  const unsampled = active.getValue(UNSAMPLED_REQUEST) as SpanContext | undefined;
  return unsampled === undefined || trace.getSpan(active) !== undefined
    ? active
    : trace.setSpanContext(active, unsampled);
}

/** The W3C headers of a context, when it has a span. */
function contextOf(active: ReturnType<typeof context.active>): StoredTraceContext | null {
  if (trace.getSpanContext(active) === undefined) return null;
  const carrier: Record<string, string> = {};
  propagation.inject(active, carrier);
  if (carrier['traceparent'] === undefined) return null;
  const stored: Record<string, string> = { traceparent: carrier['traceparent'] };
  if (carrier['tracestate']) stored['tracestate'] = carrier['tracestate'];
  return stored;
}

function openSpan(span: Span): OpenSpan {
  return {
    setAttributes(attributes) {
      for (const [key, value] of Object.entries(attributes))
        if (value !== undefined) span.setAttribute(key, value);
    },
    fail(reason) {
      span.setStatus({ code: SpanStatusCode.ERROR, message: reason });
    },
    context: () => contextOf(trace.setSpan(context.active(), span)),
  };
}
