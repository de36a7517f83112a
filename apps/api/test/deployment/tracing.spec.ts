import { spawnSync } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import request from 'supertest';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { createTestDatabase, type TestDatabase } from '@pis/persistence/test-support';
import { dropPrefix, REDIS_URL, testPrefix } from '@pis/testing/webhooks';
import { WorkerProcess } from '@pis/testing/worker';
import { ApiProcess } from '../support/api-process';
import { deploymentEnv, hookedLocation, scrape, START_TIMEOUT_MS, waitUntil } from '../support/deployment';
import { OtlpReceiver, SpanKinds, type ReceivedSpan } from '../support/otlp-receiver';
import { metric } from '../support/prometheus';
import { Receiver } from '../support/receiver';
import { P, reservation } from '../support/wire';

jest.setTimeout(300_000);

const ROOT = join(__dirname, '../../../..');
const PRELOAD = ['--require', './apps/api/test/support/report-loaded-modules.cjs'];
const START = {
  sources: {
    api: [...PRELOAD, '--import', 'tsx', 'apps/api/src/main.ts'],
    worker: [...PRELOAD, '--import', 'tsx', 'apps/worker/src/main.ts'],
  },
  bundles: {
    api: [...PRELOAD, 'apps/api/dist/main.js'],
    worker: [...PRELOAD, 'apps/worker/dist/main.js'],
  },
};
/** POST a reservation as a traced caller would: with its `traceparent`. */
const traced = (api: ApiProcess, key: string, body: object, traceparent: string) =>
  request(api.baseUrl)
    .post(`${P}/reservations`)
    .set('Authorization', `Bearer ${key}`)
    .set('traceparent', traceparent)
    .send(body)
    .timeout(10_000);
/** POST a reservation as `traced` does, its body sent a moment after its headers (another packet). */
const tracedSlowBody = (api: ApiProcess, key: string, body: object, traceparent: string) =>
  new Promise<number>((resolve, reject) => {
    const json = JSON.stringify(body);
    const sent = httpRequest(`${api.baseUrl}${P}/reservations`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${key}`,
        traceparent,
        'Content-Type': 'application/json',
        'Content-Length': Buffer.byteLength(json),
      },
      timeout: 10_000,
    });
    sent.on('response', (answer) => {
      answer.resume();
      answer.on('end', () => resolve(answer.statusCode ?? 0));
    });
    sent.on('error', reject);
    sent.flushHeaders();
    setTimeout(() => sent.end(json), 150);
  });
const loadedModules = (log: string) => Number(/opentelemetry modules loaded: (\d+)/.exec(log)?.[1] ?? NaN);

beforeAll(() => {
  // The production start runs the bundles (docs/decisions/0122): tracing is proven on them too.
  const built = spawnSync(process.execPath, ['tools/scripts/build-apps.mjs'], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  if (built.status !== 0) throw new Error(`build-apps failed: ${built.stderr}`);
});

/**
 * docs/reference/running.md#tracing: one seated reservation's trace, from the caller's
 * `traceparent` through the API's transaction, the outbox row, the relay and the job to the
 * webhook POST, in the worker deployment (API and worker processes, PostgreSQL, Redis).
 */
describe.each(['bundles', 'sources'] as const)('tracing in the worker deployment (%s)', (start) => {
  const prefix = testPrefix(`tracing-${start}`);
  // The worker's default service name, or the one OTEL_SERVICE_NAME gives it.
  const workerName = start === 'bundles' ? 'deliveries' : 'pis-worker';
  let db: TestDatabase;
  let receiver: Receiver;
  let otlp: OtlpReceiver;
  let api: ApiProcess;
  let worker: WorkerProcess;

  beforeAll(async () => {
    db = await createTestDatabase({ poolSize: 2 });
    receiver = await Receiver.start();
    otlp = await OtlpReceiver.start();
    const env = deploymentEnv(db.url, { REDIS_URL, WEBHOOK_QUEUE_PREFIX: prefix, ...otlp.env() });
    api = await ApiProcess.start(env, START_TIMEOUT_MS, START[start].api);
    worker = await WorkerProcess.start(
      start === 'bundles' ? { ...env, OTEL_SERVICE_NAME: 'deliveries' } : env,
      START_TIMEOUT_MS,
      START[start].worker,
    );
  });
  afterAll(async () => {
    await worker?.stop('SIGKILL');
    await api?.stop('SIGKILL');
    await receiver?.close();
    await otlp?.close();
    await db?.drop();
    await dropPrefix(prefix);
  });

  it("When a caller's traced request seats a reservation, then one trace holds its server span, its database spans, the relay, the attempt and the webhook POST; each process names its service and pid", async () => {
    const location = await hookedLocation(api, receiver);
    const traceId = randomBytes(16).toString('hex');
    const callerSpanId = randomBytes(8).toString('hex');

    const seated = await traced(
      api,
      location.key,
      reservation({ status: 'seated', tableIds: [location.tables[0]] }),
      `00-${traceId}-${callerSpanId}-01`,
    );
    expect(seated.status).toBe(201);
    const occupied = await receiver.until(
      () =>
        receiver
          .at(location.path)
          .find((r) => (JSON.parse(r.body) as { type: string }).type === 'table.occupied'),
      30_000,
      'table.occupied',
    );
    let spans: ReceivedSpan[] = [];
    const attempt = () => spans.find((s) => s.name === 'webhook attempt');
    await waitUntil('the attempt and its POST exported', async () => {
      spans = otlp.trace(traceId);
      const made = attempt();
      return (
        made !== undefined && spans.some((s) => s.parentSpanId === made.spanId && s.kind === SpanKinds.client)
      );
    });

    const server = spans.find((s) => s.kind === SpanKinds.server);
    const dbSpans = spans.filter(
      (s) => s.scope.endsWith('instrumentation-pg') && s.name !== 'pg-pool.connect',
    );
    const relay = spans.find((s) => s.name === 'outbox relay');
    const post = spans.find(
      (s) =>
        s.parentSpanId === attempt()!.spanId &&
        s.kind === SpanKinds.client &&
        s.scope.endsWith('instrumentation-http'),
    )!;
    // The API's server span continues the caller's trace, under the caller's span, named by its route.
    expect(server).toMatchObject({
      name: `POST ${P}/reservations`,
      parentSpanId: callerSpanId,
      attributes: { 'http.route': `${P}/reservations` },
      resource: { 'service.name': 'pis-api' },
    });
    expect(server!.resource['process.pid']).toBe(api.pid);
    // The write's statements (its transaction, the outbox insert among them), under the request.
    const apiQueries = dbSpans.filter((s) => s.resource['service.name'] === 'pis-api');
    expect(apiQueries.length).toBeGreaterThan(0);
    expect(new Set(dbSpans.map((s) => s.attributes['db.system']))).toEqual(new Set(['postgresql']));
    expect(
      dbSpans.some((s) =>
        String(s.attributes['db.statement'] ?? s.attributes['db.query.text'] ?? '').includes('outbox_events'),
      ),
    ).toBe(true);
    // The relay hands the delivery on under the stored context; the attempt is the relay's child.
    expect(relay).toBeDefined();
    expect(attempt()).toMatchObject({
      parentSpanId: relay!.spanId,
      kind: SpanKinds.consumer,
      attributes: {
        'pis.event.type': 'table.occupied',
        'pis.attempt': 1,
        'pis.attempt.outcome': 'succeeded',
      },
      resource: { 'service.name': workerName },
    });
    expect(attempt()!.resource['process.pid']).toBe(worker.pid);
    // The POST's client span comes from the http instrumentation, and its traceparent reached the endpoint.
    expect(post.attributes['http.request.method'] ?? post.attributes['http.method']).toBe('POST');
    expect(post.resource['service.name']).toBe(workerName);
    expect(String(occupied.headers['traceparent'])).toMatch(new RegExp(`^00-${traceId}-${post.spanId}-01$`));
    // Background loops (relay polls, BullMQ's reads) start no traces of their own in the worker.
    const workerRoots = otlp.spans.filter(
      (s) => s.resource['service.name'] === workerName && s.parentSpanId === null,
    );
    expect(workerRoots).toEqual([]);
    // Health probes (the start waited on /healthz) and scrapes start no trace.
    expect(otlp.spans.filter((s) => /^GET \/(readyz|healthz|metrics)$/.test(s.name))).toEqual([]);
  });

  it("When a traced request's body reaches the API after its headers, then its statements are still in its trace, and an unsampled one's context still reaches its webhook", async () => {
    const location = await hookedLocation(api, receiver);
    const traceId = randomBytes(16).toString('hex');
    const quietTrace = randomBytes(16).toString('hex');

    const sampled = await tracedSlowBody(
      api,
      location.key,
      reservation({ status: 'seated', tableIds: [location.tables[0]] }),
      `00-${traceId}-${randomBytes(8).toString('hex')}-01`,
    );
    const unsampled = await tracedSlowBody(
      api,
      location.key,
      reservation({ status: 'seated', tableIds: [location.tables[1]] }),
      `00-${quietTrace}-${randomBytes(8).toString('hex')}-00`,
    );
    const outboxInsert = (s: ReceivedSpan) =>
      s.scope.endsWith('instrumentation-pg') &&
      String(s.attributes['db.statement'] ?? s.attributes['db.query.text'] ?? '').includes('outbox_events');
    await waitUntil("the sampled write's statements exported", async () =>
      otlp.trace(traceId).some(outboxInsert),
    );
    const quietPost = await receiver.until(
      () => receiver.at(location.path).find((r) => String(r.headers['traceparent']).includes(quietTrace)),
      30_000,
      "the unsampled write's webhook",
    );

    expect([sampled, unsampled]).toEqual([201, 201]);
    const server = otlp.trace(traceId).find((s) => s.kind === SpanKinds.server)!;
    expect(server.name).toBe(`POST ${P}/reservations`);
    expect(
      otlp
        .trace(traceId)
        .filter(outboxInsert)
        .map((s) => s.resource['service.name']),
    ).toEqual(['pis-api']);
    expect(String(quietPost.headers['traceparent'])).toMatch(
      new RegExp(`^00-${quietTrace}-[0-9a-f]{16}-00$`),
    );
  });

  it('When tracing is on, then the processes loaded OpenTelemetry (what the check when off counts)', async () => {
    await api.stop('SIGTERM');
    expect(loadedModules(api.log)).toBeGreaterThan(0);
  });
});

/** The API alone (no REDIS_URL): the relay and the attempts run in the API's process. */
describe('tracing with in-process delivery', () => {
  let db: TestDatabase;
  let receiver: Receiver;
  let otlp: OtlpReceiver;
  let api: ApiProcess;
  afterAll(async () => {
    await api?.stop('SIGKILL');
    await receiver?.close();
    await otlp?.close();
    await db?.drop();
  });

  it("When a caller's traced request seats a reservation, then the API's relay, attempt and POST join the caller's trace; an unsampled one is carried on unsampled; one with no caller's context starts its own; an export the collector refuses is counted", async () => {
    db = await createTestDatabase({ poolSize: 2 });
    receiver = await Receiver.start();
    otlp = await OtlpReceiver.start();
    api = await ApiProcess.start(deploymentEnv(db.url, otlp.env()), START_TIMEOUT_MS, START.bundles.api);
    const location = await hookedLocation(api, receiver);
    const traceId = randomBytes(16).toString('hex');

    const seated = await traced(
      api,
      location.key,
      reservation({ status: 'seated', tableIds: [location.tables[0]] }),
      `00-${traceId}-${randomBytes(8).toString('hex')}-01`,
    );
    expect(seated.status).toBe(201);
    let spans: ReceivedSpan[] = [];
    await waitUntil('the attempt and its POST exported', async () => {
      spans = otlp.trace(traceId);
      const attempt = spans.find(
        (s) => s.name === 'webhook attempt' && s.attributes['pis.event.type'] === 'table.occupied',
      );
      return (
        attempt !== undefined &&
        spans.some((s) => s.parentSpanId === attempt.spanId && s.kind === SpanKinds.client)
      );
    });

    const relay = spans.find(
      (s) => s.name === 'outbox relay' && s.attributes['pis.event.type'] === 'table.occupied',
    );
    const attempt = spans.find(
      (s) => s.name === 'webhook attempt' && s.attributes['pis.event.type'] === 'table.occupied',
    )!;
    expect(new Set(spans.map((s) => s.resource['service.name']))).toEqual(new Set(['pis-api']));
    expect(relay).toBeDefined();
    expect(attempt.attributes['pis.attempt.outcome']).toBe('succeeded');
    // Under the relay's context or the one stored with the event (the write's): a span of this trace either way.
    expect(spans.map((s) => s.spanId)).toContain(attempt.parentSpanId);

    // A caller's unsampled trace: its handlers run without a span to hang statements on, yet
    // its context is stored with the event and the webhook's POST continues it, unsampled.
    const quietTrace = randomBytes(16).toString('hex');
    const unsampled = await traced(
      api,
      location.key,
      reservation({ status: 'seated', tableIds: [location.tables[1]] }),
      `00-${quietTrace}-${randomBytes(8).toString('hex')}-00`,
    );
    expect(unsampled.status).toBe(201);
    const quietPost = await receiver.until(
      () => receiver.at(location.path).find((r) => String(r.headers['traceparent']).includes(quietTrace)),
      30_000,
      "the unsampled write's webhook",
    );
    expect(String(quietPost.headers['traceparent'])).toMatch(
      new RegExp(`^00-${quietTrace}-[0-9a-f]{16}-00$`),
    );
    expect(otlp.trace(quietTrace)).toEqual([]);

    // A request with no caller's context starts a trace of its own (the sampler, asked before
    // the span is built, keeps it): its server span is the root of the trace the POST continues.
    const before = new Set(receiver.at(location.path));
    const rootless = await request(api.baseUrl)
      .post(`${P}/reservations`)
      .set('Authorization', `Bearer ${location.key}`)
      .send(reservation({ status: 'seated', tableIds: [location.tables[2]] }))
      .timeout(10_000);
    expect(rootless.status).toBe(201);
    const rootlessPost = await receiver.until(
      () => receiver.at(location.path).find((r) => !before.has(r) && r.headers['traceparent'] !== undefined),
      30_000,
      "the untraced caller's webhook",
    );
    const rootTrace = /^00-([0-9a-f]{32})-[0-9a-f]{16}-01$/.exec(
      String(rootlessPost.headers['traceparent']),
    )?.[1];
    expect(rootTrace).toBeDefined();
    let rootSpans: ReceivedSpan[] = [];
    await waitUntil("the untraced caller's server span exported", async () => {
      rootSpans = otlp.trace(rootTrace!);
      return rootSpans.some((s) => s.kind === SpanKinds.server);
    });
    const server = rootSpans.find((s) => s.kind === SpanKinds.server)!;
    expect(server.name).toBe(`POST ${P}/reservations`);
    expect(server.parentSpanId).toBeNull();

    // A collector that refuses an export: counted in /metrics, and the writes go on.
    const exportErrors = async () => metric(await scrape(api.baseUrl), 'pis_trace_export_errors_total');
    expect(await exportErrors()).toBe(0);
    otlp.refuse();
    const after = await traced(
      api,
      location.key,
      reservation(),
      `00-${randomBytes(16).toString('hex')}-${randomBytes(8).toString('hex')}-01`,
    );
    expect(after.status).toBe(201);
    await waitUntil('the refused export counted', async () => ((await exportErrors()) ?? 0) >= 1);
  });
});

describe.each(['bundles', 'sources'] as const)('tracing off (%s)', (start) => {
  let db: TestDatabase;
  let receiver: Receiver;
  afterAll(async () => {
    await receiver?.close();
    await db?.drop();
  });

  it('When no OTEL exporter is configured, then the API loads no @opentelemetry module and stores no trace context with its events', async () => {
    db = await createTestDatabase({ poolSize: 2 });
    receiver = await Receiver.start();
    const api = await ApiProcess.start(
      deploymentEnv(db.url, { OTEL_SERVICE_NAME: 'named-but-off' }),
      START_TIMEOUT_MS,
      START[start].api,
    );
    try {
      const location = await hookedLocation(api, receiver);
      const seated = await traced(
        api,
        location.key,
        reservation({ status: 'seated', tableIds: [location.tables[0]] }),
        `00-${randomBytes(16).toString('hex')}-${randomBytes(8).toString('hex')}-01`,
      );
      expect(seated.status).toBe(201);
      await receiver.until(() => (receiver.at(location.path).length >= 2 ? true : undefined), 30_000);
    } finally {
      expect(await api.stop('SIGTERM')).toBe(0);
    }
    const stored: { traced: number; events: number }[] = await db.dataSource.query(
      `SELECT count(trace_context)::int AS traced, count(*)::int AS events FROM outbox_events`,
    );

    expect(loadedModules(api.log)).toBe(0);
    expect(stored).toEqual([{ traced: 0, events: expect.any(Number) }]);
    expect(stored[0]!.events).toBeGreaterThan(0);
  });
});
