import type { ClaimedDelivery, PipelineBacklog, PipelineBacklogMeasure } from '@pis/ports';
import type { Logger } from 'pino';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { clusterScrape } from './cluster-metrics';
import { metricsAccess } from './metrics-token';
import { ReadOnScrapeGauge } from './read-on-scrape-gauge';

/** One `pg` pool's connections (the `Database` facade's `poolUsage()`). */
export interface PoolGaugeSource {
  pool: string;
  total: number;
  idle: number;
  waiting: number;
  max: number;
}

/** The read replica's state and routed reads (the `Database` facade's `replicaStatus()`). */
export interface ReplicaGaugeSource {
  state: 'serving' | 'lagging' | 'down';
  lagSeconds: number | null;
  reads: { source: string; reason: string; count: number }[];
}

/** What the collect-on-scrape gauges read; each is optional (PGlite has no pools, ...). */
export interface MetricsSources {
  backlog?: PipelineBacklog;
  pools?: () => PoolGaugeSource[];
  /** null (or absent) without a read replica. */
  replica?: () => ReplicaGaugeSource | null;
  /** Errors met so far by each Redis client of the process (`redisErrorCounts`); absent without Redis. */
  redisErrors?: () => { client: string; count: number }[];
  /** Trace batches the OpenTelemetry SDK failed to export so far; absent with tracing off. */
  traceExportErrors?: () => number;
}

export interface MetricsOptions {
  /** `METRICS_TOKEN`: the bearer token a scrape must present; null leaves `/metrics` open. */
  token: string | null;
  sources: MetricsSources;
  logger: Logger;
  /** An API process of a cluster: a scrape answers every process's metrics, merged by the primary. */
  clustered?: boolean;
}

/** One answered HTTP request; `route` is the route's pattern (never the raw path) or `unmatched`. */
export interface RequestSample {
  method: string;
  route: string;
  status: number;
  seconds: number;
}

/** What the webhook pipeline tells of an attempt (the `AttemptObservation` of `@pis/webhooks`). */
export interface AttemptSample {
  delivery: Pick<ClaimedDelivery, 'generation' | 'attemptCount' | 'event'>;
  attemptedAt: Date;
  result: { durationMs: number };
  decision: { kind: 'succeeded' | 'retry' | 'failed' };
}

/** A delivering process's slots (the `SlotUsage` of `@pis/webhooks`). */
export interface SlotSample {
  inFlight: number;
  strugglingEndpoints: number;
  parkedJobs: number;
}

export interface Scrape {
  contentType: string;
  text: string;
}

const LATENCY_BUCKETS = [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900, 3600];
const REQUEST_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

let processRegistry: Registry | null = null;

/**
 * prom-client's gauges whose names end in `_total`, a suffix Prometheus keeps for counters
 * (`promtool check metrics` refuses them); each is the sum over `type` of the gauge of the
 * same name without the suffix, which stays.
 */
const DROPPED_DEFAULT_METRICS = [
  'nodejs_active_handles_total',
  'nodejs_active_requests_total',
  'nodejs_active_resources_total',
];

/**
 * prom-client's process metrics, collected once per process whatever the number of runtimes
 * in it (tests and the CLI make many; each collection would start its own event-loop monitor).
 */
function processMetrics(): Registry {
  if (processRegistry === null) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
    for (const name of DROPPED_DEFAULT_METRICS) processRegistry.removeSingleMetric(name);
  }
  return processRegistry;
}

/**
 * The service's Prometheus metrics (README, Operate): process metrics, HTTP requests by
 * route, webhook attempts by outcome, delivery latency, and gauges read when scraped (the
 * pipeline's backlog, the database pools). One per process; `aggregator` says how the API's
 * cluster primary merges its processes' values (decision 0121).
 */
export class ServiceMetrics {
  /** Every metric this process reports: its process metrics and this instance's own. */
  readonly registry: Registry;
  private readonly own = new Registry();
  readonly authorized: (authorization: string | undefined) => boolean;
  private readonly requests: Histogram<'method' | 'route' | 'status'>;
  private readonly attempts: Counter<'outcome'>;
  private readonly attemptDuration: Histogram;
  private readonly latency: Histogram;
  private measuring: Promise<PipelineBacklogMeasure | null> | null = null;
  private readonly scrapeCluster: (() => Promise<string>) | null;
  private slots: (() => SlotSample) | null = null;

  constructor(private readonly options: MetricsOptions) {
    this.authorized = metricsAccess(options.token);
    const registers = [this.own];
    this.requests = new Histogram({
      name: 'pis_http_request_duration_seconds',
      help: 'HTTP requests answered, by method, route pattern and status, and how long they took',
      labelNames: ['method', 'route', 'status'],
      buckets: REQUEST_BUCKETS,
      registers,
    });
    this.attempts = new Counter({
      name: 'pis_webhook_attempts_total',
      help: 'Webhook delivery attempts, by what followed: succeeded, retry (failed, another is scheduled) or failed (no more)',
      labelNames: ['outcome'],
      registers,
    });
    for (const outcome of ['succeeded', 'retry', 'failed']) this.attempts.inc({ outcome }, 0);
    this.attemptDuration = new Histogram({
      name: 'pis_webhook_attempt_duration_seconds',
      help: 'How long the receiver took to answer an attempt (up to the timeout)',
      buckets: LATENCY_BUCKETS.slice(0, 10),
      registers,
    });
    this.latency = new Histogram({
      name: 'pis_webhook_delivery_latency_seconds',
      help: "From an event's commit to the start of its first delivery attempt",
      buckets: LATENCY_BUCKETS,
      registers,
    });
    this.backlogGauge(
      'pis_outbox_lag_seconds',
      'Age of the oldest committed event no relay has fanned out yet (0 when none waits)',
      (m) => m.outboxLagSeconds,
    );
    this.backlogGauge(
      'pis_outbox_unrelayed_events',
      'Committed events no relay has fanned out yet',
      (m) => m.unrelayedEvents,
    );
    this.backlogGauge(
      'pis_webhook_deliveries_pending',
      'Deliveries waiting for their first attempt or a retry',
      (m) => m.pendingDeliveries,
    );
    this.slotGauge(
      'pis_webhook_attempts_in_flight',
      'Webhook delivery attempts in flight in this process',
      (s) => s.inFlight,
    );
    this.slotGauge(
      'pis_webhook_endpoints_struggling',
      "Endpoints held to a struggling endpoint's share of the slots (last attempt failed or slow, or one running long)",
      (s) => s.strugglingEndpoints,
    );
    this.slotGauge(
      'pis_webhook_jobs_parked',
      'Delivery jobs parked in the delayed set until a slot of their endpoint frees',
      (s) => s.parkedJobs,
    );
    this.poolGauge('pis_db_pool_connections', 'Open connections of each database pool', (p) => p.total);
    this.poolGauge('pis_db_pool_idle_connections', 'Idle connections of each database pool', (p) => p.idle);
    this.poolGauge(
      'pis_db_pool_waiting_requests',
      'Callers waiting for a connection of each database pool',
      (p) => p.waiting,
    );
    this.poolGauge('pis_db_pool_max_connections', 'The most connections each pool opens', (p) => p.max);
    this.replicaMetrics();
    this.errorCounters();
    this.registry = Registry.merge([processMetrics(), this.own]);
    this.scrapeCluster = options.clustered ? clusterScrape(this.registry) : null;
  }

  observeRequest({ method, route, status, seconds }: RequestSample): void {
    this.requests.observe({ method, route, status: String(status) }, seconds);
  }

  /** An `AttemptObserver` for the webhook pipeline. */
  readonly attemptObserver = {
    onAttempt: ({ delivery, attemptedAt, result, decision }: AttemptSample): void => {
      this.attempts.inc({ outcome: decision.kind });
      this.attemptDuration.observe(result.durationMs / 1000);
      // Only a delivery's very first attempt measures the pipeline; retries and
      // redeliveries wait on purpose.
      if (delivery.generation === 0 && delivery.attemptCount === 0) {
        const seconds = (attemptedAt.getTime() - delivery.event.occurredAt.epochMillis()) / 1000;
        this.latency.observe(Math.max(0, seconds));
      }
    },
  };

  /**
   * Reports the slots of the process's delivery (the worker, or the API without `REDIS_URL`),
   * read at each scrape. The delivery is built after the metrics it reports to, hence a call
   * rather than a source; until it is made (and in an API that does not deliver) the slot
   * gauges answer no sample.
   */
  watchSlots(read: () => SlotSample): void {
    this.slots = read;
  }

  /** The metrics in the Prometheus text format: this process's, or its whole cluster's. */
  async scrape(): Promise<Scrape> {
    const text = this.scrapeCluster ? await this.scrapeCluster() : await this.registry.metrics();
    return { contentType: this.registry.contentType, text };
  }

  private backlogGauge(name: string, help: string, pick: (m: PipelineBacklogMeasure) => number): void {
    const { backlog } = this.options.sources;
    if (!backlog) return;
    // Every process of an API cluster measures the same database: merged by `max`.
    new ReadOnScrapeGauge({ name, help, registry: this.own, aggregator: 'max' }, async () => {
      const measure = await this.measureBacklog(backlog);
      return measure === null ? null : pick(measure);
    });
  }

  private slotGauge(name: string, help: string, pick: (s: SlotSample) => number): void {
    // Each process counts its own slots: a cluster's are summed.
    new ReadOnScrapeGauge({ name, help, registry: this.own, aggregator: 'sum' }, async () =>
      this.slots === null ? null : pick(this.slots()),
    );
  }

  private poolGauge(name: string, help: string, pick: (p: PoolGaugeSource) => number): void {
    const { pools } = this.options.sources;
    if (!pools) return;
    new Gauge({
      name,
      help,
      labelNames: ['pool'],
      registers: [this.own],
      collect() {
        for (const usage of pools()) this.set({ pool: usage.pool }, pick(usage));
      },
    });
  }

  /** With a read replica: where reads went and why, whether it serves, how far behind it may be. */
  private replicaMetrics(): void {
    const { replica } = this.options.sources;
    if (!replica || replica() === null) return;
    const read = async () => replica();
    new Counter({
      name: 'pis_db_replica_reads_total',
      help: 'Reads a read replica may serve, by where they ran (replica, primary) and why (caught_up; recent_write, lagging, down, failed, positions_unknown: on the primary)',
      labelNames: ['source', 'reason'],
      registers: [this.own],
      collect() {
        this.reset();
        for (const r of replica()?.reads ?? []) this.inc({ source: r.source, reason: r.reason }, r.count);
      },
    });
    // Every process of a cluster reads the same replica: the merged value is the worst one seen.
    new ReadOnScrapeGauge(
      {
        name: 'pis_db_replica_serving',
        help: '1 while the read replica serves reads, 0 while it is down or further behind than DATABASE_READ_MAX_LAG_MS',
        registry: this.own,
        aggregator: 'min',
      },
      async () => ((await read())?.state === 'serving' ? 1 : 0),
    );
    new ReadOnScrapeGauge(
      {
        name: 'pis_db_replica_lag_seconds',
        help: 'How far behind the primary the read replica may be (an upper bound, to the poll interval); absent while it is down',
        registry: this.own,
        aggregator: 'max',
      },
      async () => {
        const lag = (await read())?.lagSeconds ?? null;
        return lag === null || !Number.isFinite(lag) ? null : lag;
      },
    );
  }

  /** Errors counted elsewhere in the process (the Redis clients, the trace exporter), read when scraped. */
  private errorCounters(): void {
    const { redisErrors, traceExportErrors } = this.options.sources;
    if (redisErrors) {
      new Counter({
        name: 'pis_redis_errors_total',
        help: 'Errors met by each Redis client of the process (connections refused or lost, commands timed out; on a Redis Cluster also node errors and failed slot refreshes), by client',
        labelNames: ['client'],
        registers: [this.own],
        collect() {
          this.reset();
          for (const { client, count } of redisErrors()) this.inc({ client }, count);
        },
      });
    }
    if (traceExportErrors) {
      new Counter({
        name: 'pis_trace_export_errors_total',
        help: 'Batches of spans the OpenTelemetry SDK failed to export (refused, unreachable or timed out), and its other errors',
        registers: [this.own],
        collect() {
          this.reset();
          this.inc(traceExportErrors());
        },
      });
    }
  }

  /** One query per scrape, shared by the gauges that the registry collects in parallel. */
  private measureBacklog(backlog: PipelineBacklog): Promise<PipelineBacklogMeasure | null> {
    this.measuring ??= backlog
      .measure()
      .catch((err: unknown) => {
        this.options.logger.warn({ err }, 'the pipeline backlog could not be measured for /metrics');
        return null;
      })
      .finally(() => {
        this.measuring = null;
      });
    return this.measuring;
  }
}
