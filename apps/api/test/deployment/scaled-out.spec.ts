import { randomBytes } from 'node:crypto';
import { LocalReplica, createTestDatabase, type TestDatabase } from '@pis/persistence/test-support';
import { testPrefix } from '@pis/testing/webhooks';
import { WorkerProcess } from '@pis/testing/worker';
import { RedisTestCluster } from '@pis/webhooks/test-support';
import request from 'supertest';
import { ApiProcess } from '../support/api-process';
import {
  deploymentEnv,
  hookedLocation,
  METRICS_TOKEN,
  metricsPortOf,
  scrape,
  START_TIMEOUT_MS,
  waitUntil,
} from '../support/deployment';
import { OtlpReceiver, SpanKinds } from '../support/otlp-receiver';
import { metric, promtoolCheck } from '../support/prometheus';
import { Receiver } from '../support/receiver';
import { P, reservation } from '../support/wire';

jest.setTimeout(300_000);

/*
 * docs/reference/running.md#scaling-out, every part at once: the API (two processes) reading
 * from a streaming replica (DATABASE_READ_URL), the worker, both on a Redis Cluster
 * (REDIS_CLUSTER_NODES: the queue, the rate limit, the write positions) and exporting traces
 * (OTEL_*). A few contract checks only; each part has its own suite.
 */
describe('scaled out: Redis Cluster, read replica and tracing together', () => {
  const prefix = testPrefix('scaled');
  let cluster: RedisTestCluster;
  let replica: LocalReplica;
  let db: TestDatabase;
  let receiver: Receiver;
  let otlp: OtlpReceiver;
  let api: ApiProcess;
  let worker: WorkerProcess;

  beforeAll(async () => {
    [cluster, replica, db, receiver, otlp] = await Promise.all([
      RedisTestCluster.start(),
      LocalReplica.start(),
      createTestDatabase({ poolSize: 1 }),
      Receiver.start(),
      OtlpReceiver.start(),
    ]);
    const env = deploymentEnv(db.url, {
      DATABASE_READ_URL: replica.url(db.url),
      API_WORKERS: '2',
      REDIS_CLUSTER_NODES: cluster.nodes,
      WEBHOOK_QUEUE_PREFIX: prefix,
      METRICS_TOKEN,
      ...otlp.env(),
    });
    [api, worker] = await Promise.all([
      ApiProcess.start(env, START_TIMEOUT_MS),
      WorkerProcess.start({ ...env, API_WORKERS: '1' }, START_TIMEOUT_MS),
    ]);
  });
  afterAll(async () => {
    await worker?.stop('SIGKILL');
    await api?.stop('SIGKILL');
    await receiver?.close();
    await otlp?.close();
    await db?.drop();
    await replica?.destroy();
    await cluster?.destroy();
  });

  it("When a traced caller seats a reservation, then it reads its write back at once, its webhook arrives through the cluster's queue in the caller's trace, and both processes' metrics are clean", async () => {
    const location = await hookedLocation(api, receiver);
    const traceId = randomBytes(16).toString('hex');
    const body = reservation({ status: 'seated', tableIds: [location.tables[0]] });

    const seated = await request(api.baseUrl)
      .post(`${P}/reservations`)
      .set('Authorization', `Bearer ${location.key}`)
      .set('traceparent', `00-${traceId}-${randomBytes(8).toString('hex')}-01`)
      .send(body)
      .timeout(10_000);
    const window = await api.call(
      'get',
      `${P}/reservations?from=2026-11-21T00:00Z&to=2026-11-22T00:00Z`,
      location.key,
    );

    expect(seated.status).toBe(201);
    // Read-your-writes: the window the replica may serve already holds the write.
    expect(window.status).toBe(200);
    expect((window.body.reservations as { externalId: string }[]).map((r) => r.externalId)).toContain(
      body['externalId'],
    );
    // The webhook went through the queue's slot on the cluster, carrying the caller's trace.
    const occupied = await receiver.until(
      () =>
        receiver
          .at(location.path)
          .find((r) => (JSON.parse(r.body) as { type: string }).type === 'table.occupied'),
      30_000,
      'table.occupied',
    );
    expect(String(occupied.headers['traceparent'])).toMatch(new RegExp(`^00-${traceId}-`));
    await waitUntil('the API and worker spans of the trace exported', async () => {
      const spans = otlp.trace(traceId);
      return (
        spans.some((s) => s.kind === SpanKinds.server && s.resource['service.name'] === 'pis-api') &&
        spans.some((s) => s.name === 'webhook attempt' && s.resource['service.name'] === 'pis-worker')
      );
    });
    // Metrics: the replica serves, nothing failed to export, the Redis error counter is
    // there, and Prometheus's linter finds nothing to complain of in either scrape.
    await waitUntil(
      'the replica serving',
      async () => metric(await scrape(api.baseUrl), 'pis_db_replica_serving') === 1,
    );
    for (const text of [
      await scrape(api.baseUrl),
      await scrape(`http://127.0.0.1:${metricsPortOf(worker.log)}`),
    ]) {
      expect(text).toContain('# TYPE pis_redis_errors_total counter');
      expect(metric(text, 'pis_trace_export_errors_total')).toBe(0);
      expect(promtoolCheck(text)).toEqual({ code: 0, problems: '' });
    }
    expect((await cluster.errorReplies())['CROSSSLOT'] ?? 0).toBe(0);
  });
});
