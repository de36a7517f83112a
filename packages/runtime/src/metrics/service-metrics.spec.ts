import { Instant, type StoredEvent } from '@pis/domain';
import { type PipelineBacklogMeasure } from '@pis/ports';
import { createLogger } from '../logger';
import { ServiceMetrics, type AttemptSample, type ReplicaGaugeSource } from './service-metrics';

const logger = createLogger('silent');

/** The value of the one series `name{labels}` in the Prometheus text; undefined when absent. */
function value(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('ServiceMetrics', () => {
  it('When no token is configured, then any caller may read; with one, only its bearer, compared exactly', () => {
    const open = new ServiceMetrics({ token: null, sources: {}, logger });
    const guarded = new ServiceMetrics({ token: 'a-metrics-token-of-16', sources: {}, logger });

    expect(open.authorized(undefined)).toBe(true);
    expect(guarded.authorized('Bearer a-metrics-token-of-16')).toBe(true);
    expect(guarded.authorized('bearer a-metrics-token-of-16')).toBe(true);
    for (const refused of [
      undefined,
      '',
      'Bearer',
      'Bearer a-metrics-token-of-1',
      'Basic a-metrics-token-of-16',
    ])
      expect(guarded.authorized(refused)).toBe(false);
  });

  it('When the Redis clients and the trace exporter met errors, then each count is scraped afresh (Redis by client); without Redis or tracing, neither metric is there', async () => {
    let redis = [{ client: 'queue-worker', count: 2 }];
    let exportErrors = 0;
    const metrics = new ServiceMetrics({
      token: null,
      sources: { redisErrors: () => redis, traceExportErrors: () => exportErrors },
      logger,
    });
    const without = (await new ServiceMetrics({ token: null, sources: {}, logger }).scrape()).text;

    const first = (await metrics.scrape()).text;
    redis = [
      { client: 'queue-worker', count: 5 },
      { client: 'rate-limit', count: 1 },
    ];
    exportErrors = 3;
    const second = (await metrics.scrape()).text;

    expect(value(first, 'pis_redis_errors_total{client="queue-worker"}')).toBe(2);
    expect(value(first, 'pis_trace_export_errors_total')).toBe(0);
    expect(value(second, 'pis_redis_errors_total{client="queue-worker"}')).toBe(5);
    expect(value(second, 'pis_redis_errors_total{client="rate-limit"}')).toBe(1);
    expect(value(second, 'pis_trace_export_errors_total')).toBe(3);
    expect(first).toContain('# TYPE pis_redis_errors_total counter');
    expect(without).not.toMatch(/pis_redis_errors_total|pis_trace_export_errors_total/);
  });

  it('When a read replica is configured, then its reads by source and reason, whether it serves and its lag are scraped; while it is down the lag is left out; without one, none of them', async () => {
    let status: ReplicaGaugeSource = {
      state: 'serving',
      lagSeconds: 0.04,
      reads: [
        { source: 'replica', reason: 'caught_up', count: 12 },
        { source: 'primary', reason: 'recent_write', count: 3 },
      ],
    };
    const metrics = new ServiceMetrics({ token: null, sources: { replica: () => status }, logger });
    const none = new ServiceMetrics({ token: null, sources: { replica: () => null }, logger });

    const serving = (await metrics.scrape()).text;
    status = {
      state: 'down',
      lagSeconds: null,
      reads: [...status.reads, { source: 'primary', reason: 'down', count: 2 }],
    };
    const down = (await metrics.scrape()).text;
    const without = (await none.scrape()).text;

    expect(value(serving, 'pis_db_replica_reads_total{source="replica",reason="caught_up"}')).toBe(12);
    expect(value(serving, 'pis_db_replica_reads_total{source="primary",reason="recent_write"}')).toBe(3);
    expect([value(serving, 'pis_db_replica_serving'), value(serving, 'pis_db_replica_lag_seconds')]).toEqual([
      1, 0.04,
    ]);
    expect(value(down, 'pis_db_replica_reads_total{source="primary",reason="down"}')).toBe(2);
    expect(value(down, 'pis_db_replica_reads_total{source="replica",reason="caught_up"}')).toBe(12);
    expect(value(down, 'pis_db_replica_serving')).toBe(0);
    expect(value(down, 'pis_db_replica_lag_seconds')).toBeUndefined();
    expect(without).not.toContain('pis_db_replica');
  });

  it('When the backlog cannot be measured, then its gauges are left out rather than stale, and come back with the database', async () => {
    let answer: PipelineBacklogMeasure | null = {
      outboxLagSeconds: 2.5,
      unrelayedEvents: 3,
      pendingDeliveries: 7,
    };
    let measured = 0;
    const backlog = {
      measure: async () => {
        measured += 1;
        if (answer === null) throw new Error('the database is unavailable');
        return answer;
      },
    };
    const metrics = new ServiceMetrics({ token: null, sources: { backlog }, logger });

    const up = (await metrics.scrape()).text;
    answer = null;
    const down = (await metrics.scrape()).text;
    answer = { outboxLagSeconds: 0, unrelayedEvents: 0, pendingDeliveries: 1 };
    const back = (await metrics.scrape()).text;

    expect([value(up, 'pis_outbox_lag_seconds'), value(up, 'pis_outbox_unrelayed_events')]).toEqual([2.5, 3]);
    expect(value(up, 'pis_webhook_deliveries_pending')).toBe(7);
    expect(value(down, 'pis_outbox_lag_seconds')).toBeUndefined();
    expect(value(down, 'pis_webhook_deliveries_pending')).toBeUndefined();
    expect(value(back, 'pis_webhook_deliveries_pending')).toBe(1);
    // One measurement per scrape, shared by the three gauges.
    expect(measured).toBe(3);
  });

  it('When the delivery slots are watched, then each scrape reads them afresh; a process that does not deliver answers no sample', async () => {
    const metrics = new ServiceMetrics({ token: null, sources: {}, logger });
    const unwatched = (await metrics.scrape()).text;
    let sample = { inFlight: 3, strugglingEndpoints: 1, parkedJobs: 40 };
    metrics.watchSlots(() => sample);

    const first = (await metrics.scrape()).text;
    sample = { inFlight: 0, strugglingEndpoints: 0, parkedJobs: 0 };
    const second = (await metrics.scrape()).text;

    expect(
      ['pis_webhook_attempts_in_flight', 'pis_webhook_endpoints_struggling', 'pis_webhook_jobs_parked'].map(
        (name) => [value(first, name), value(second, name)],
      ),
    ).toEqual([
      [3, 0],
      [1, 0],
      [40, 0],
    ]);
    expect(value(unwatched, 'pis_webhook_attempts_in_flight')).toBeUndefined();
  });

  it("When attempts are observed, then each counts under its outcome and only a delivery's very first attempt measures the latency", async () => {
    const metrics = new ServiceMetrics({ token: null, sources: {}, logger });
    const committed = Instant.fromEpochMillis(Date.parse('2026-11-21T19:00:00.000Z'));
    const attempt = (generation: number, attemptCount: number, kind: AttemptSample['decision']['kind']) =>
      metrics.attemptObserver.onAttempt({
        delivery: { generation, attemptCount, event: { occurredAt: committed } as StoredEvent },
        attemptedAt: new Date('2026-11-21T19:00:00.180Z'),
        result: { durationMs: 40 },
        decision: { kind },
      });

    attempt(0, 0, 'retry');
    attempt(0, 1, 'succeeded');
    attempt(1, 0, 'failed');
    const text = (await metrics.scrape()).text;

    expect(value(text, 'pis_webhook_attempts_total{outcome="succeeded"}')).toBe(1);
    expect(value(text, 'pis_webhook_attempts_total{outcome="retry"}')).toBe(1);
    expect(value(text, 'pis_webhook_attempts_total{outcome="failed"}')).toBe(1);
    expect(value(text, 'pis_webhook_delivery_latency_seconds_count')).toBe(1);
    expect(value(text, 'pis_webhook_delivery_latency_seconds_sum')).toBeCloseTo(0.18, 6);
    expect(value(text, 'pis_webhook_attempt_duration_seconds_count')).toBe(3);
  });

  it('When several instances live in one process, then each reports the process metrics beside its own', async () => {
    const [a, b] = [1, 2].map(() => new ServiceMetrics({ token: null, sources: {}, logger }));
    a!.observeRequest({ method: 'GET', route: '/healthz', status: 200, seconds: 0.002 });

    const [textA, textB] = await Promise.all([a!.scrape(), b!.scrape()]).then((s) => s.map((x) => x.text));

    for (const text of [textA!, textB!])
      expect(value(text, 'process_cpu_user_seconds_total')).toBeGreaterThan(0);
    expect(
      value(textA!, 'pis_http_request_duration_seconds_count{method="GET",route="/healthz",status="200"}'),
    ).toBe(1);
    expect(textB).not.toContain('route="/healthz"');
  });
});
