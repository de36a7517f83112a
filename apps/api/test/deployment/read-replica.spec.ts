import request from 'supertest';
import { LocalReplica, createTestDatabase, type TestDatabase } from '@pis/persistence/test-support';
import { dropPrefix, REDIS_URL, testPrefix } from '@pis/testing/webhooks';
import { WorkerProcess } from '@pis/testing/worker';
import { ApiProcess } from '../support/api-process';
import {
  BACKOFFICE_TOKEN,
  deploymentEnv,
  hookedLocation,
  METRICS_TOKEN,
  scrape,
  START_TIMEOUT_MS,
  waitUntil,
  type HookedLocation,
} from '../support/deployment';
import { metric } from '../support/prometheus';
import { Receiver } from '../support/receiver';
import { startTestApi, type TestApi } from '../support/test-api';
import { B, P, reservation, type Json } from '../support/wire';

jest.setTimeout(300_000);

/*
 * The API deployment with DATABASE_READ_URL naming a real streaming replica of the test
 * server (pg_basebackup -R, pg_ctl on its own port): two API processes (API_WORKERS=2, the
 * positions of each location's last write in Redis) and the webhook worker, driven through
 * HTTP only. Each read is compared with the same read from an API without a replica, made
 * right after it: the answers must be the same, whichever API process took the write and
 * whichever the read, with the replica's replay paused or the replica stopped.
 */
describe('API with a read replica (DATABASE_READ_URL)', () => {
  const prefix = testPrefix('replica');
  let replica: LocalReplica;
  let db: TestDatabase;
  let receiver: Receiver;
  let api: ApiProcess;
  let worker: WorkerProcess;
  /** The same database without a replica: what the primary answers. */
  let truth: TestApi;
  /** A location written before any test; the tests below never write to it. */
  let quiet: HookedLocation;

  beforeAll(async () => {
    replica = await LocalReplica.start();
    db = await createTestDatabase({ poolSize: 1 });
    receiver = await Receiver.start();
    const env = deploymentEnv(db.url, {
      DATABASE_READ_URL: replica.url(db.url),
      // Only read-your-writes decides here (a paused replica is not skipped for its lag).
      DATABASE_READ_MAX_LAG_MS: '3600000',
      API_WORKERS: '2',
      REDIS_URL,
      WEBHOOK_QUEUE_PREFIX: prefix,
      METRICS_TOKEN,
    });
    api = await ApiProcess.start(env, START_TIMEOUT_MS);
    worker = await WorkerProcess.start({ ...env, API_WORKERS: '1' }, START_TIMEOUT_MS);
    truth = await startTestApi(db.url, { BACKOFFICE_TOKEN, REDIS_URL, WEBHOOK_QUEUE_PREFIX: prefix });
    quiet = await hookedLocation(api, receiver);
    expect((await api.call('post', `${P}/reservations`, quiet.key, tonight())).status).toBe(201);
    await waitUntil(
      'both API processes serve reads from the replica',
      async () => {
        const text = await scrape(api.baseUrl).catch(() => '');
        return (
          metric(text, 'pis_db_pool_max_connections', { pool: 'replica' }) === 20 &&
          metric(text, 'pis_db_replica_serving') === 1
        );
      },
      START_TIMEOUT_MS,
    );
  });
  afterAll(async () => {
    await truth?.close();
    await worker?.stop('SIGTERM');
    await api?.stop('SIGTERM');
    await receiver?.close();
    await db?.drop();
    await replica?.destroy();
    await dropPrefix(prefix);
  });

  /** GET `path` with `token` from the API under test. */
  const read = async (path: string, token: string) => {
    const res = await api.call('get', path, token);
    expect(res.status).toBe(200);
    return withoutClock(res.body as Json);
  };
  /** The same GET from the API without a replica. */
  const primary = async (path: string, token: string) => {
    const res = await request(truth.baseUrl).get(path).set('Authorization', `Bearer ${token}`);
    expect(res.status).toBe(200);
    return withoutClock(res.body as Json);
  };
  /** The read, then the primary's answer to it: they must agree. */
  const exact = async (path: string, token: string) => {
    const served = await read(path, token);
    expect(served).toEqual(await primary(path, token));
    return served;
  };
  /** Reads routed since start, summed over both API processes: `source:reason` counts. */
  const routed = async (): Promise<Record<string, number>> => {
    const text = await scrape(api.baseUrl);
    const counts: Record<string, number> = {};
    for (const source of ['replica', 'primary']) {
      for (const reason of ['caught_up', 'recent_write', 'lagging', 'down', 'failed', 'positions_unknown']) {
        const n = metric(text, 'pis_db_replica_reads_total', { source, reason });
        if (n !== undefined && n > 0) counts[`${source}:${reason}`] = n;
      }
    }
    return counts;
  };
  const delta = (before: Record<string, number>, after: Record<string, number>) =>
    Object.fromEntries(
      Object.entries(after)
        .map(([key, n]) => [key, n - (before[key] ?? 0)] as const)
        .filter(([, n]) => n > 0),
    );
  /** The reads of a location a replica may serve: window, feed, table state, deliveries; console: working plan, orders. */
  const everyRead = (location: { key: string; ops: (path: string) => string }) =>
    [
      [`${P}/reservations?from=2026-11-21T00:00Z&to=2026-11-22T00:00Z`, location.key],
      [`${P}/events`, location.key],
      [`${P}/tables/state`, location.key],
      [`${P}/webhook-deliveries`, location.key],
      [location.ops('/floorplan/working'), BACKOFFICE_TOKEN],
      [location.ops('/orders'), BACKOFFICE_TOKEN],
    ] as const;

  it('When the replica has replayed a location, then its provider and console reads are served there (the replica counts them itself) and answer what the primary does', async () => {
    await replica.caughtUp();
    const scansBefore = await replicaScans();
    await waitUntil('a round of reads served by the replica alone', async () => {
      const before = await routed();
      for (const [path, token] of everyRead(quiet)) await read(path, token);
      return JSON.stringify(delta(before, await routed())) === JSON.stringify({ 'replica:caught_up': 6 });
    });

    for (const [path, token] of everyRead(quiet)) await exact(path, token);
    const listed = await read(everyRead(quiet)[0][0], quiet.key);
    expect(listed['reservations']).toHaveLength(1);
    await waitUntil('the replica counts scans of the tables read', async () => {
      const scans = await replicaScans();
      return ['reservations', 'outbox_events', 'orders', 'webhook_deliveries', 'rooms'].every(
        (table) => scans[table]! > scansBefore[table]!,
      );
    });
  });

  it('When replay is paused, then every read after a write is exact, whichever API process takes each, while a location written before the pause is still read on the replica', async () => {
    await replica.caughtUp();
    await replica.pauseReplay();
    try {
      // A location made after the pause: the replica has never heard of it.
      const fresh = await hookedLocation(api, receiver, '-fresh');
      for (const [path, token] of everyRead(fresh)) await exact(path, token);

      const created = await api.call('post', `${P}/reservations`, fresh.key, tonight({ externalId: 'r-1' }));
      expect(created.status).toBe(201);
      const listed = await exact(everyRead(fresh)[0][0], fresh.key);
      expect((listed['reservations'] as Json[]).map((r) => r['externalId'])).toEqual(['r-1']);

      const seated = await api.call(
        'put',
        `${P}/reservations/r-1`,
        fresh.key,
        tonight({
          externalId: 'r-1',
          status: 'seated',
          tableIds: [fresh.tables[0]],
          updatedAt: '2026-11-21T18:00:00Z',
        }),
      );
      expect(seated.status).toBe(200);
      const state = await exact(`${P}/tables/state`, fresh.key);
      expect((state['tables'] as Json[]).filter((t) => t['order'] !== null)).toHaveLength(1);
      const events = await exact(`${P}/events`, fresh.key);
      expect((events['events'] as Json[]).at(-1)?.['type']).toBe('table.occupied');

      // The till (the operator's credential) seats a walk-in; the provider reads it at once.
      const walkIn = await api.call('post', fresh.ops('/orders'), BACKOFFICE_TOKEN, {
        tableIds: [fresh.tables[1]],
        covers: 3,
      });
      expect(walkIn.status).toBe(201);
      const after = await exact(`${P}/tables/state`, fresh.key);
      expect((after['tables'] as Json[]).filter((t) => t['order'] !== null)).toHaveLength(2);
      const orders = await exact(fresh.ops('/orders'), BACKOFFICE_TOKEN);
      expect((orders['orders'] as Json[]).map((o) => o['id'])).toContain(walkIn.body.id);

      // A blind retry of the quiet location's reservation writes nothing: its reads stay on the replica.
      const before = await routed();
      const retried = await api.call('put', `${P}/reservations/r-quiet`, quiet.key, tonight());
      expect(retried.status).toBe(200);
      expect(retried.body.outcome).toBe('stale');
      for (const [path, token] of everyRead(quiet).slice(0, 3)) await exact(path, token);
      expect(delta(before, await routed())).toEqual({ 'replica:caught_up': 3 });
    } finally {
      await replica.resumeReplay();
    }
  });

  it('When the replica is stopped, then the service keeps answering every read from the primary and says the replica is not serving; once it is back, reads go there again', async () => {
    const location = await hookedLocation(api, receiver, '-stop');
    expect((await api.call('post', `${P}/reservations`, location.key, tonight())).status).toBe(201);
    await replica.stop();
    try {
      for (const [path, token] of everyRead(location)) await exact(path, token);
      for (const [path, token] of everyRead(quiet)) await exact(path, token);
      const written = await api.call(
        'post',
        `${P}/reservations`,
        location.key,
        tonight({ externalId: 'r-2' }),
      );
      expect(written.status).toBe(201);
      await exact(everyRead(location)[0][0], location.key);
      await waitUntil('the metrics say the replica is not serving', async () => {
        const text = await scrape(api.baseUrl);
        return metric(text, 'pis_db_replica_serving') === 0;
      });
      const counts = await routed();
      expect((counts['primary:down'] ?? 0) + (counts['primary:failed'] ?? 0)).toBeGreaterThan(0);
    } finally {
      await replica.start();
    }
    await waitUntil('the replica serves again', async () => {
      const text = await scrape(api.baseUrl);
      return metric(text, 'pis_db_replica_serving') === 1;
    });
    await replica.caughtUp();
    await waitUntil('reads served by the replica again', async () => {
      const before = await routed();
      await read(everyRead(quiet)[0][0], quiet.key);
      return (delta(before, await routed())['replica:caught_up'] ?? 0) === 1;
    });
  });

  /** Scans of each table of the test database, counted by the replica itself. */
  async function replicaScans(): Promise<Record<string, number>> {
    const rows = await replica.query<{ relname: string; scans: number }>(
      db.url,
      `SELECT relname, (coalesce(idx_scan, 0) + coalesce(seq_scan, 0))::int AS scans FROM pg_stat_user_tables`,
    );
    return Object.fromEntries(rows.map((r) => [r.relname, r.scans]));
  }
});

/** A reservation tonight (`r-quiet` unless named), booked, written at a fixed time. */
function tonight(overrides: Json = {}): Json {
  return reservation({
    externalId: 'r-quiet',
    startsAt: '2026-11-21T19:00:00Z',
    updatedAt: '2026-11-20T10:00:00Z',
    ...overrides,
  });
}

/** An answer without the instant it was generated at. */
function withoutClock(body: Json): Json {
  const { generatedAt: _generatedAt, ...rest } = body;
  return rest;
}
