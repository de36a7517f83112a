import { Client } from 'pg';
import { OutboxRelay } from '../src';
import {
  appendEvents,
  givenEndpoint,
  givenLocation,
  occupiedEvents,
  openHarness,
  type Harness,
} from './support/harness';

describe('OutboxRelay', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await openHarness();
  });
  afterAll(async () => {
    await h?.close();
  });

  const count = async (sql: string, locationId: string) =>
    ((await h.db.dataSource.query(sql, [locationId])) as { n: number }[])[0]!.n;
  const unrelayed = (locationId: string) =>
    count(
      `SELECT count(*)::int AS n FROM outbox_events WHERE location_id = $1 AND relayed_at IS NULL`,
      locationId,
    );
  const deliveryRows = (locationId: string) =>
    count(`SELECT count(*)::int AS n FROM webhook_deliveries WHERE location_id = $1`, locationId);
  const relayAll = async (relay: OutboxRelay) => {
    while ((await relay.relayBatch()).events === relay.size);
  };

  async function givenSubscribedLocation(): Promise<string> {
    const locationId = await givenLocation(h);
    await givenEndpoint(h, locationId, 'https://hooks.provider.example/hooks');
    return locationId;
  }

  it('When a batch is relayed, then each event gets one pending delivery due now, with its type and sequence, and is marked relayed', async () => {
    const locationId = await givenSubscribedLocation();
    const events = await appendEvents(h, locationId, occupiedEvents(3));

    await relayAll(new OutboxRelay(h.db.dataSource));

    const rows = (await h.db.dataSource.query(
      `SELECT event_id, event_type, sequence::int AS sequence, status, attempt_count, generation, queued_generation,
              next_attempt_at <= clock_timestamp() AS due
         FROM webhook_deliveries WHERE location_id = $1 ORDER BY sequence`,
      [locationId],
    )) as unknown[];
    expect(rows).toEqual(
      events.map((e) => ({
        event_id: e.id,
        event_type: 'table.occupied',
        sequence: e.sequence,
        status: 'pending',
        attempt_count: 0,
        generation: 0,
        queued_generation: null,
        due: true,
      })),
    );
    expect(await unrelayed(locationId)).toBe(0);
  });

  it('When two relays work through 1,000 events at the same time, then every event gets exactly one delivery', async () => {
    const locationId = await givenSubscribedLocation();
    await appendEvents(h, locationId, occupiedEvents(1_000));
    const [a, b] = [new OutboxRelay(h.db.dataSource, 50), new OutboxRelay(h.db.dataSource, 50)];

    await Promise.all([relayAll(a), relayAll(b), relayAll(a)]);

    expect(await unrelayed(locationId)).toBe(0);
    expect(
      await count(
        `SELECT count(DISTINCT sequence)::int AS n FROM webhook_deliveries WHERE location_id = $1`,
        locationId,
      ),
    ).toBe(1_000);
    expect(await deliveryRows(locationId)).toBe(1_000);
  });

  it('When an event is relayed a second time, then no second delivery is created', async () => {
    const locationId = await givenSubscribedLocation();
    await appendEvents(h, locationId, occupiedEvents(2));
    const relay = new OutboxRelay(h.db.dataSource);
    await relayAll(relay);

    await h.db.dataSource.query(`UPDATE outbox_events SET relayed_at = NULL WHERE location_id = $1`, [
      locationId,
    ]);
    const again = await relay.relayBatch();

    expect(again.events).toBeGreaterThanOrEqual(2);
    expect(await deliveryRows(locationId)).toBe(2);
  });

  it('When the relay dies after claiming a batch and before committing it, then the next relay delivers every event of it', async () => {
    const locationId = await givenSubscribedLocation();
    await appendEvents(h, locationId, occupiedEvents(5));
    // Holding this lock makes the relay block inside its transaction, after its claim.
    const blocker = new Client({ connectionString: h.db.url });
    blocker.on('error', () => undefined);
    await blocker.connect();
    await blocker.query('BEGIN');
    await blocker.query('LOCK TABLE webhook_deliveries IN EXCLUSIVE MODE');
    const dying = new OutboxRelay(h.db.dataSource).relayBatch();
    const rejected = expect(dying).rejects.toThrow();
    // Polled from another session: the blocker's transaction sees one statistics snapshot.
    await waitUntil(async () => {
      const rows = (await h.db.dataSource.query(
        `SELECT pid FROM pg_stat_activity
          WHERE datname = current_database() AND wait_event_type = 'Lock'
            AND query LIKE '%INSERT INTO webhook_deliveries%'`,
      )) as { pid: number }[];
      if (rows.length === 0) return false;
      await blocker.query('SELECT pg_terminate_backend($1)', [rows[0]!.pid]);
      return true;
    });
    await rejected;
    await blocker.query('ROLLBACK');
    await blocker.end();
    const claimedButLost = await unrelayed(locationId);

    await relayAll(new OutboxRelay(h.db.dataSource));

    expect(claimedButLost).toBe(5);
    expect(await unrelayed(locationId)).toBe(0);
    expect(await deliveryRows(locationId)).toBe(5);
  });

  it('When the endpoint is disabled, then events are relayed without deliveries', async () => {
    const locationId = await givenSubscribedLocation();
    await h.db.dataSource.query(`UPDATE webhook_endpoints SET disabled_at = now() WHERE location_id = $1`, [
      locationId,
    ]);
    await appendEvents(h, locationId, occupiedEvents(2));

    await relayAll(new OutboxRelay(h.db.dataSource));

    expect(await unrelayed(locationId)).toBe(0);
    expect(await deliveryRows(locationId)).toBe(0);
  });
});

async function waitUntil(condition: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition never held');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
