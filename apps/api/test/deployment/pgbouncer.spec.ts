import { Client } from 'pg';
import { createTestDatabase, type TestDatabase } from '@pis/persistence/test-support';
import { dropPrefix, REDIS_URL, testPrefix } from '@pis/testing/webhooks';
import { WorkerProcess } from '@pis/testing/worker';
import { ApiProcess } from '../support/api-process';
import {
  BACKOFFICE_TOKEN,
  deploymentEnv,
  hookedLocation,
  waitUntil,
  START_TIMEOUT_MS,
} from '../support/deployment';
import { PgBouncer } from '../support/pgbouncer';
import { Receiver, verified } from '../support/receiver';
import { P, UTC_MILLIS } from '../support/wire';

jest.setTimeout(240_000);

/**
 * The probe's name. PgBouncer sets it on the server connection the probe borrows; without
 * one, that connection would keep its last client's name (`pis-worker`, say) beside the
 * probe's LISTEN.
 */
const PROBE = 'pis-test-probe';

/**
 * README, Operate: the API and the worker deployment through a stock PgBouncer in
 * transaction pooling mode (no startup options, no named prepared statements), with
 * DATABASE_DIRECT_URL for LISTEN and the migrations. The database's sessions run in a
 * TimeZone that is not UTC: behind the pooler nothing may depend on it.
 */
describe('API and worker through PgBouncer (transaction pooling)', () => {
  const prefix = testPrefix('pgbouncer');
  let db: TestDatabase;
  let bouncer: PgBouncer;
  let receiver: Receiver;
  let api: ApiProcess;
  let worker: WorkerProcess;

  beforeAll(async () => {
    bouncer = await PgBouncer.start();
    // An empty database: the first start migrates it, over the direct connection.
    db = await createTestDatabase({ poolSize: 1, settings: { TimeZone: 'Asia/Kathmandu' } });
    await db.dataSource.query(`DROP SCHEMA public CASCADE; CREATE SCHEMA public`);
    receiver = await Receiver.start();
    const env = deploymentEnv(bouncer.pooled(db.url), {
      // Prepared statements are off by default beside a direct URL (PgBouncer 1.18 cannot keep them).
      DATABASE_DIRECT_URL: db.url,
      REDIS_URL,
      WEBHOOK_QUEUE_PREFIX: prefix,
    });
    api = await ApiProcess.start(env, START_TIMEOUT_MS);
    worker = await WorkerProcess.start(env, START_TIMEOUT_MS);
  });
  afterAll(async () => {
    await worker?.stop('SIGTERM');
    await api?.stop('SIGTERM');
    await receiver?.close();
    await db?.drop();
    await bouncer?.stop();
    await dropPrefix(prefix);
  });

  it('When the database is reached through PgBouncer, then its sessions are pooled per transaction and run in a TimeZone other than UTC', async () => {
    const client = new Client({ connectionString: bouncer.pooled(db.url), application_name: PROBE });
    await client.connect();
    const [zone] = (await client.query('SHOW TimeZone')).rows;
    const refused = await client.query('LISTEN pis_probe').then(
      () => null,
      (error: Error) => error.message,
    );
    await client.end();
    const [mode] = await bouncer
      .admin<{ key: string; value: string }>('SHOW CONFIG')
      .then((rows) => rows.filter((r) => r.key === 'pool_mode'));

    expect(zone).toEqual({ TimeZone: 'Asia/Kathmandu' });
    expect(mode?.value).toBe('transaction');
    // PgBouncer lets LISTEN through but loses its notifications; what matters is where ours go (below).
    expect(refused).toBeNull();
  });

  it('When a provider imports, publishes, books, seats, conflicts and reconciles, then every answer is right, instants in UTC, and the worker delivers every event, signed and in order', async () => {
    const location = await hookedLocation(api, receiver);
    const [t1, t2] = location.tables;
    const body = (tableIds: string[], status: string, updatedAt: string) => ({
      externalId: 'r-1001',
      status,
      partyName: 'Ada',
      covers: 2,
      startsAt: '2026-11-21T19:00+01:00',
      tableIds,
      updatedAt,
    });

    const created = await api.call(
      'post',
      `${P}/reservations`,
      location.key,
      body([t1!], 'confirmed', '2026-11-20T10:00:00Z'),
    );
    const seated = await api.call(
      'put',
      `${P}/reservations/r-1001`,
      location.key,
      body([t1!], 'seated', '2026-11-21T18:02:00.123456Z'),
    );
    const walkIn = await api.call('post', location.ops('/orders'), BACKOFFICE_TOKEN, {
      tableIds: [t2!],
      covers: 3,
    });
    const refused = await api.call(
      'put',
      `${P}/reservations/r-1001`,
      location.key,
      body([t2!], 'seated', '2026-11-21T18:10:00Z'),
    );
    const listed = await api.call(
      'get',
      `${P}/reservations?from=2026-11-21T00:00Z&to=2026-11-22T00:00Z`,
      location.key,
    );

    expect(created.status).toBe(201);
    expect(seated.status).toBe(200);
    expect(walkIn.status).toBe(201);
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatchObject({
      code: 'table_occupied',
      occupiedBy: expect.objectContaining({ orderId: walkIn.body.id }),
    });
    expect(listed.status).toBe(200);
    expect(listed.body.reservations).toEqual([
      expect.objectContaining({
        externalId: 'r-1001',
        status: 'seated',
        startsAt: '2026-11-21T18:00:00.000Z',
        updatedAt: '2026-11-21T18:02:00.123Z',
      }),
    ]);

    // floorplan.published, table.occupied (the seating), table.occupied (the walk-in).
    await receiver.until(
      () =>
        new Set(receiver.at(location.path).map((r) => r.headers['webhook-id'])).size === 3 ? true : undefined,
      30_000,
    );
    const events = receiver.at(location.path).map((r) => verified(r, location.secret));
    const sequences = events.map(
      (e) => (e['data'] as { locationEventSequence: number }).locationEventSequence,
    );
    expect(new Set(sequences)).toEqual(new Set([1, 2, 3]));
    for (const event of events) expect(event['timestamp']).toMatch(UTC_MILLIS);
    let deliveries: { status: string; attempts: { attemptedAt: string }[] }[] = [];
    await waitUntil('every delivery recorded as succeeded', async () => {
      const res = await api.call('get', `${P}/webhook-deliveries`, location.key);
      deliveries = res.body.deliveries;
      return deliveries.length === 3 && deliveries.every((d) => d.status === 'succeeded');
    });
    for (const d of deliveries) expect(d.attempts[0]!.attemptedAt).toMatch(UTC_MILLIS);
  });

  it('When both processes run, then their pools go through PgBouncer and only their LISTEN sessions go direct', async () => {
    const name = new URL(db.url).pathname.slice(1);
    const stats = await bouncer.admin<{ database: string; total_xact_count: string }>('SHOW STATS');
    const clients = await bouncer.admin<{ database: string; application_name: string }>('SHOW CLIENTS');
    const direct = await directSessions();

    expect(Number(stats.find((s) => s.database === name)?.total_xact_count)).toBeGreaterThan(20);
    const pooled = new Set(clients.filter((c) => c.database === name).map((c) => c.application_name));
    expect(pooled).toEqual(new Set(['pis-api', 'pis-worker']));
    expect(direct).toEqual([
      { application_name: 'pis-api-listener', listening: true },
      { application_name: 'pis-worker-listener', listening: true },
    ]);
  });

  /**
   * The database's sessions that reach it around PgBouncer, the test's own left out. A session
   * is told apart by its backend, never by its name or its last statement: PgBouncer's server
   * connections carry their last client's `application_name`, and one may last have run
   * another client's statement (the probe's LISTEN above). Its server list is read before and
   * after the sessions, so a server connection opened or closed meanwhile counts as pooled.
   */
  async function directSessions(): Promise<{ application_name: string; listening: boolean }[]> {
    const remotePids = async () =>
      (await bouncer.admin<{ remote_pid: string }>('SHOW SERVERS')).map((s) => Number(s.remote_pid));
    const before = await remotePids();
    const sessions = (await db.dataSource.query(
      `SELECT pid, application_name, query LIKE 'LISTEN %' AS listening FROM pg_stat_activity
        WHERE datname = current_database() AND backend_type = 'client backend'
        ORDER BY application_name`,
    )) as { pid: number; application_name: string; listening: boolean }[];
    const servers = new Set([...before, ...(await remotePids())]);
    return sessions
      .filter((s) => !servers.has(s.pid) && !TEST_SESSIONS.has(s.application_name))
      .map(({ application_name, listening }) => ({ application_name, listening }));
  }
});

/** The test's own direct sessions: the test database's pools and its (idle) listener. */
const TEST_SESSIONS = new Set(['pis', 'pis-test-listener']);
