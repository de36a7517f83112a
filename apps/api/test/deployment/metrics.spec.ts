import request from 'supertest';
import { createTestDatabase, type TestDatabase } from '@pis/persistence/test-support';
import { dropPrefix, REDIS_URL, testPrefix } from '@pis/testing/webhooks';
import { WorkerProcess } from '@pis/testing/worker';
import { ApiProcess } from '../support/api-process';
import {
  deploymentEnv,
  hookedLocation,
  metricsPortOf,
  METRICS_TOKEN,
  openAndClose,
  scrape,
  sleep,
  waitUntil,
  START_TIMEOUT_MS,
} from '../support/deployment';
import { metric, promtoolCheck } from '../support/prometheus';
import { Receiver } from '../support/receiver';

jest.setTimeout(240_000);

/**
 * README, Operate: the metrics of a real deployment (API and worker processes on PostgreSQL
 * and Redis), read as Prometheus would while real traffic moves them.
 */
describe('metrics of the API and the worker', () => {
  const prefix = testPrefix('metrics');
  let db: TestDatabase;
  let receiver: Receiver;
  let api: ApiProcess;
  let worker: WorkerProcess;
  let workerUrl: string;
  const env = () =>
    deploymentEnv(db.url, {
      REDIS_URL,
      WEBHOOK_QUEUE_PREFIX: prefix,
      METRICS_TOKEN,
      // One retry, then the delivery has failed.
      WEBHOOK_RETRY_DELAYS_MS: '100',
    });
  const startWorker = async () => {
    worker = await WorkerProcess.start(env(), START_TIMEOUT_MS);
    workerUrl = `http://127.0.0.1:${metricsPortOf(worker.log)}`;
  };

  beforeAll(async () => {
    db = await createTestDatabase({ poolSize: 2 });
    receiver = await Receiver.start();
    receiver.status = (r) => (r.path.endsWith('/failing') ? 500 : 204);
    api = await ApiProcess.start(env(), START_TIMEOUT_MS);
    await startWorker();
  });
  afterAll(async () => {
    await worker?.stop('SIGKILL');
    await api?.stop('SIGKILL');
    await receiver?.close();
    await db?.drop();
    await dropPrefix(prefix);
  });

  it('When /metrics is read without the metrics token or with another credential, then 401 in the envelope; with it, the Prometheus text', async () => {
    for (const baseUrl of [api.baseUrl, workerUrl]) {
      const anonymous = await request(baseUrl).get('/metrics');
      const wrong = await request(baseUrl)
        .get('/metrics')
        .set('Authorization', 'Bearer not-the-metrics-token');
      const text = await scrape(baseUrl);

      for (const refused of [anonymous, wrong]) {
        expect(refused.status).toBe(401);
        expect(refused.body).toEqual({
          error: {
            code: 'unauthorized',
            message: expect.stringContaining('METRICS_TOKEN'),
            occupiedBy: null,
          },
        });
      }
      expect(metric(text, 'process_resident_memory_bytes')).toBeGreaterThan(0);
      expect(metric(text, 'nodejs_heap_size_used_bytes')).toBeGreaterThan(0);
      expect(metric(text, 'pis_db_pool_max_connections', { pool: 'write' })).toBeGreaterThan(0);
      expect(metric(text, 'pis_db_pool_connections', { pool: 'write' })).toBeGreaterThanOrEqual(0);
      expect(metric(text, 'pis_db_pool_waiting_requests', { pool: 'read' })).toBeGreaterThanOrEqual(0);
    }
    const health = await request(workerUrl).get('/healthz');
    const ready = await request(workerUrl).get('/readyz');
    expect([health.status, ready.status]).toEqual([200, 200]);
    // The worker delivers under the same URL rules as the API, and says so as the API does.
    const apiHealth = await request(api.baseUrl).get('/healthz');
    expect(health.body).toEqual({
      status: 'ok',
      webhookAllowInsecureUrls: true,
      webhookAllowPrivateUrls: true,
    });
    expect(apiHealth.body).toEqual(health.body);
  });

  it('When one delivery succeeds and another fails, then the worker counts attempts by outcome and the first attempts in the latency histogram, and the API counts requests by route pattern and status', async () => {
    const delivering = await hookedLocation(api, receiver);
    const failing = await hookedLocation(api, receiver, '/failing');

    await receiver.until(() => (receiver.at(delivering.path).length === 1 ? true : undefined));
    let text = '';
    await waitUntil('three attempts counted and their slots given back', async () => {
      text = await scrape(workerUrl);
      return (
        metric(text, 'pis_webhook_attempts_total') === 3 &&
        metric(text, 'pis_webhook_attempts_in_flight') === 0
      );
    });
    const apiText = await scrape(api.baseUrl);

    // floorplan.published of each: delivered to the first; refused twice by the second.
    expect(metric(text, 'pis_webhook_attempts_total', { outcome: 'succeeded' })).toBe(1);
    expect(metric(text, 'pis_webhook_attempts_total', { outcome: 'retry' })).toBe(1);
    expect(metric(text, 'pis_webhook_attempts_total', { outcome: 'failed' })).toBe(1);
    expect(receiver.at(failing.path)).toHaveLength(2);
    expect(metric(text, 'pis_webhook_delivery_latency_seconds_count')).toBe(2);
    expect(metric(text, 'pis_webhook_delivery_latency_seconds_bucket', { le: '60' })).toBe(2);
    expect(metric(text, 'pis_webhook_attempt_duration_seconds_count')).toBe(3);
    // The failing endpoint is held to a struggling endpoint's share; the one that keeps up is not.
    expect(metric(text, 'pis_webhook_endpoints_struggling')).toBe(1);
    expect(metric(text, 'pis_webhook_jobs_parked')).toBe(0);
    const requests = (labels: Record<string, string>) =>
      metric(apiText, 'pis_http_request_duration_seconds_count', labels);
    expect(
      requests({
        method: 'POST',
        route: '/api/backoffice/v1/locations/:locationId/floorplan/publish',
        status: '200',
      }),
    ).toBe(2);
    expect(requests({ method: 'PUT', route: '/api/provider/v1/webhook-endpoint', status: '200' })).toBe(2);
    expect(requests({ method: 'GET', route: '/metrics', status: '401' })).toBe(2);
    expect(requests({ method: 'GET', route: '/healthz', status: '200' })).toBeGreaterThanOrEqual(1);
    // Route patterns only: no location id, order id or key ever becomes a label.
    for (const id of [delivering.id, failing.id, delivering.key]) expect(apiText).not.toContain(id);
  });

  it('When a request matches no route, or is refused on a route, then it is counted under "unmatched" or the route pattern', async () => {
    const before = await scrape(api.baseUrl);
    const count = (text: string, labels: Record<string, string>) =>
      metric(text, 'pis_http_request_duration_seconds_count', labels) ?? 0;
    const added = (after: string, labels: Record<string, string>) =>
      count(after, labels) - count(before, labels);

    await request(api.baseUrl).get('/no/such/path/123');
    await api.call('put', '/api/provider/v1/reservations/r-404', 'demo_sk_live_notakey', {});
    await api.call('get', '/api/provider/v1/reservations/r-404', 'demo_sk_live_notakey');
    const after = await scrape(api.baseUrl);

    const pattern = '/api/provider/v1/reservations/:externalId';
    expect(added(after, { route: 'unmatched', status: '404' })).toBe(1);
    expect(added(after, { method: 'PUT', route: pattern, status: '401' })).toBe(1);
    expect(added(after, { method: 'GET', route: pattern, status: '405' })).toBe(1);
    expect(after).not.toContain('r-404');
  });

  it("When Prometheus's linter reads the API's and the worker's /metrics after traffic, then it finds nothing to complain of", async () => {
    // After the tests above: failed attempts and refused, unmatched and answered requests are all in the text.
    for (const baseUrl of [api.baseUrl, workerUrl]) {
      const text = await scrape(baseUrl);

      expect({ baseUrl, ...promtoolCheck(text) }).toEqual({ baseUrl, code: 0, problems: '' });
      // prom-client's by-type gauges stay; their `_total` sums, gauges named as counters, are left out.
      expect(text).toMatch(/^# TYPE nodejs_active_handles gauge$/m);
      expect(text).not.toMatch(/^nodejs_active_\w+_total/m);
    }
  });

  it('When the worker is stopped, then the outbox lag and the unrelayed events rise while events wait, and fall to 0 once a worker relays them', async () => {
    const location = await hookedLocation(api, receiver);
    await waitUntil(
      'nothing waiting',
      async () => metric(await scrape(api.baseUrl), 'pis_outbox_lag_seconds') === 0,
    );
    expect(await worker.stop('SIGTERM')).toBe(0);

    await openAndClose(api, location, location.tables[1]!);
    await sleep(1_500);
    const waiting = await scrape(api.baseUrl);
    await startWorker();
    let drained = '';
    await waitUntil('the backlog drained', async () => {
      drained = await scrape(api.baseUrl);
      return (
        metric(drained, 'pis_outbox_lag_seconds') === 0 &&
        metric(drained, 'pis_webhook_deliveries_pending') === 0
      );
    });

    expect(metric(waiting, 'pis_outbox_lag_seconds')).toBeGreaterThanOrEqual(1.5);
    // table.occupied, table.freed and order.closed wait; floorplan.published went before.
    expect(metric(waiting, 'pis_outbox_unrelayed_events')).toBe(3);
    expect(metric(drained, 'pis_outbox_unrelayed_events')).toBe(0);
    expect(receiver.at(location.path)).toHaveLength(4);
  });
});

describe('metrics of an API cluster (API_WORKERS=2)', () => {
  let db: TestDatabase;
  let api: ApiProcess;

  beforeAll(async () => {
    db = await createTestDatabase({ poolSize: 2 });
    api = await ApiProcess.start(
      deploymentEnv(db.url, { API_WORKERS: '2', LOG_LEVEL: 'warn' }),
      START_TIMEOUT_MS,
    );
  });
  afterAll(async () => {
    await api?.stop('SIGTERM');
    await db?.drop();
  });

  it('When requests spread over both processes, then a scrape of either answers the whole cluster: counters summed, the backlog once', async () => {
    // Both processes report their pools (10 connections each) once both have started.
    // (A scrape fails while a process is still loading its code: the primary waits for it in vain.)
    await waitUntil(
      'both API processes up',
      async () => {
        const text = await scrape(api.baseUrl, null).catch(() => '');
        return metric(text, 'pis_db_pool_max_connections', { pool: 'write' }) === 20;
      },
      START_TIMEOUT_MS,
    );

    await Promise.all(Array.from({ length: 20 }, () => request(api.baseUrl).get('/readyz').expect(200)));
    const text = await scrape(api.baseUrl, null);

    expect(metric(text, 'pis_http_request_duration_seconds_count', { route: '/readyz', status: '200' })).toBe(
      20,
    );
    expect(metric(text, 'pis_outbox_lag_seconds')).toBe(0);
    expect(text.match(/^pis_outbox_lag_seconds /gm)).toHaveLength(1);
    // The merged text is as clean as each process's.
    expect(promtoolCheck(text)).toEqual({ code: 0, problems: '' });
  });
});
