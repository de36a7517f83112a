import { Client as PgClient } from 'pg';
import { createTestDatabase, type TestDatabase } from '@pis/persistence/test-support';
import { dropPrefix, REDIS_URL, testPrefix } from '@pis/testing/webhooks';
import { WorkerProcess } from '@pis/testing/worker';
import { ApiProcess } from './support/api-process';
import { deploymentEnv, hookedLocation, openAndClose, waitUntil } from './support/deployment';
import { Receiver, verified } from './support/receiver';

jest.setTimeout(90_000);

/** 25 walk-in orders opened and closed: table.occupied, table.freed and order.closed each. */
const ORDERS = 25;
const EVENTS = 3 * ORDERS;

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

/**
 * docs/reference/webhooks.md#at-least-once when the API process dies by SIGKILL after its
 * writes committed and before any relay fanned their events out: nothing is in memory
 * that the next process needs, so every committed event still reaches the endpoint.
 */
describe('the API process killed after commit and before the relay', () => {
  let db: TestDatabase;
  let receiver: Receiver;
  const processes: { stop(signal: NodeJS.Signals): Promise<number | null> }[] = [];
  const prefixes: string[] = [];

  beforeAll(async () => {
    db = await createTestDatabase({ poolSize: 2 });
    receiver = await Receiver.start();
  });
  afterEach(async () => {
    await Promise.all(processes.splice(0).map((p) => p.stop('SIGKILL')));
  });
  afterAll(async () => {
    await receiver?.close();
    await db?.drop();
    for (const prefix of prefixes) await dropPrefix(prefix);
  });

  // The worker's start line is an info log; the API's warnings are enough.
  const apiEnv = (extra: Record<string, string> = {}) =>
    deploymentEnv(db.url, { LOG_LEVEL: 'warn', ...extra });
  const startApi = async (extra: Record<string, string> = {}) => {
    const api = await ApiProcess.start(apiEnv(extra));
    processes.push(api);
    return api;
  };

  const outbox = (locationId: string) =>
    db.dataSource.query(
      `SELECT id, sequence::int AS sequence, relayed_at IS NOT NULL AS relayed
         FROM outbox_events WHERE location_id = $1 ORDER BY sequence`,
      [locationId],
    ) as Promise<{ id: string; sequence: number; relayed: boolean }[]>;
  const deliveryStatuses = async (locationId: string) =>
    (
      (await db.dataSource.query(`SELECT status FROM webhook_deliveries WHERE location_id = $1`, [
        locationId,
      ])) as { status: string }[]
    ).map((d) => d.status);

  /**
   * Waits for `total` distinct webhook-ids at `path`, verifies every request with the
   * reference `standardwebhooks` verifier, and checks they are exactly the outbox's events
   * (webhook-id is the event id) and that every delivery ended succeeded.
   */
  async function expectEveryEventDelivered(
    location: { id: string; path: string; secret: string },
    total: number,
  ): Promise<void> {
    const distinct = () => new Set(receiver.at(location.path).map((r) => String(r.headers['webhook-id'])));
    await receiver.until(() => (distinct().size >= total ? true : undefined), 30_000, `${total} webhook-ids`);
    const requests = receiver.at(location.path);
    const sequences = new Set(
      requests.map(
        (r) =>
          (verified(r, location.secret)['data'] as { locationEventSequence: number }).locationEventSequence,
      ),
    );
    expect([...sequences].sort((a, b) => a - b)).toEqual(range(1, total));
    const events = await outbox(location.id);
    expect([...distinct()].sort()).toEqual(events.map((e) => e.id).sort());
    await waitUntil('every delivery succeeded', async () => {
      const statuses = await deliveryStatuses(location.id);
      return statuses.length === total && statuses.every((s) => s === 'succeeded');
    });
  }

  it('When the API delivering in-process is killed with SIGKILL after 75 events committed while its relay was blocked inside its transaction, then the restarted API relays and delivers every one', async () => {
    const first = await startApi();
    const location = await hookedLocation(first, receiver);
    // The pipeline works before the fault: floorplan.published arrives and its delivery is recorded.
    await waitUntil('floorplan.published delivered', async () => {
      const statuses = await deliveryStatuses(location.id);
      return receiver.at(location.path).length === 1 && statuses.length === 1 && statuses[0] === 'succeeded';
    });

    // While this lock is held the relay's INSERT INTO webhook_deliveries waits: it has claimed
    // events (FOR UPDATE) and cannot commit them as relayed.
    const blocker = new PgClient({ connectionString: db.url });
    blocker.on('error', () => undefined);
    await blocker.connect();
    try {
      await blocker.query('BEGIN');
      await blocker.query('LOCK TABLE webhook_deliveries IN EXCLUSIVE MODE');

      await openAndClose(first, location, location.tables[0]!);
      // Polled from another session: the blocker's transaction sees one statistics snapshot.
      await waitUntil('the relay waiting on the lock', async () => {
        const rows: unknown[] = await db.dataSource.query(
          `SELECT 1 FROM pg_stat_activity
            WHERE datname = current_database() AND application_name = 'pis-api'
              AND wait_event_type = 'Lock' AND query LIKE '%INSERT INTO webhook_deliveries%'`,
        );
        return rows.length > 0;
      });
      for (let i = 1; i < ORDERS; i += 1) {
        await openAndClose(first, location, location.tables[i % location.tables.length]!);
      }
      expect(await first.stop('SIGKILL')).toBeNull();
      await blocker.query('ROLLBACK');
    } finally {
      await blocker.end().catch(() => undefined);
    }

    const afterKill = await outbox(location.id);
    expect(afterKill.map((e) => [e.sequence, e.relayed])).toEqual([
      [1, true],
      ...range(2, EVENTS + 1).map((sequence) => [sequence, false]),
    ]);
    expect(receiver.at(location.path)).toHaveLength(1);

    await startApi();
    await expectEveryEventDelivered(location, EVENTS + 1);
  });

  it('When the API writing only the outbox (REDIS_URL set) is killed with SIGKILL right after its commits, then a worker started afterwards delivers every event', async () => {
    const prefix = testPrefix('api-faults');
    prefixes.push(prefix);
    const api = await startApi({ REDIS_URL, WEBHOOK_QUEUE_PREFIX: prefix });
    const location = await hookedLocation(api, receiver);
    for (let i = 0; i < 10; i += 1) {
      await openAndClose(api, location, location.tables[i % location.tables.length]!);
    }
    expect(await api.stop('SIGKILL')).toBeNull();

    // No relay runs in this deployment until the worker does.
    const afterKill = await outbox(location.id);
    expect(afterKill.map((e) => [e.sequence, e.relayed])).toEqual(range(1, 31).map((s) => [s, false]));
    expect(receiver.at(location.path)).toHaveLength(0);

    const worker = await WorkerProcess.start({
      ...apiEnv({ REDIS_URL, WEBHOOK_QUEUE_PREFIX: prefix, WEBHOOK_WORKER_CONCURRENCY: '8' }),
      // The worker's start line is an info log.
      LOG_LEVEL: 'info',
    });
    processes.push(worker);
    await expectEveryEventDelivered(location, 31);
  });
});
