import { Client } from 'pg';
import { Instant } from '@pis/domain';
import { type ClaimedDelivery } from '@pis/ports';
import { anEndpoint, anEvent, commit, givenLocationRow } from '@pis/testing';
import type { TestDatabase } from '../src/test-support';
import { createPersistence } from '../src';
import { postgresStore, testCipher, type Store } from './support/harness';

/*
 * What the delivery pipeline contract cannot say of PostgreSQL: row shapes, the database
 * clock, SKIP LOCKED under concurrent relays, and a relay that dies mid-transaction.
 */

let store: Store & { database: TestDatabase };
beforeAll(async () => {
  store = await postgresStore(6);
});
afterAll(async () => {
  await store?.close();
});

const LEASE_MS = 60_000;
const sql = <T>(text: string, params: unknown[] = []) => store.dataSource.query(text, params) as Promise<T[]>;
const count = async (text: string, locationId: string) =>
  (await sql<{ n: number }>(text, [locationId]))[0]!.n;
const unrelayed = (locationId: string) =>
  count(
    `SELECT count(*)::int AS n FROM outbox_events WHERE location_id = $1 AND relayed_at IS NULL`,
    locationId,
  );
const deliveryRows = (locationId: string) =>
  count(`SELECT count(*)::int AS n FROM webhook_deliveries WHERE location_id = $1`, locationId);
const relayAll = async (batch = 500) => {
  while ((await store.pipeline.relay.relayBatch(batch)).events === batch);
};
const secondsUntilDue = async (id: string) =>
  (
    await sql<{ s: number }>(
      `SELECT extract(epoch FROM next_attempt_at - clock_timestamp())::float8 AS s FROM webhook_deliveries WHERE id = $1`,
      [id],
    )
  )[0]!.s;

async function givenSubscribedLocation(): Promise<string> {
  const location = await givenLocationRow(store.uow);
  await commit(store.uow, (tx) => tx.webhookEndpoints.save(anEndpoint(location.id)));
  return location.id;
}

async function appendEvents(locationId: string, n: number) {
  return commit(store.uow, (tx) =>
    tx.outbox.append(
      locationId,
      Array.from({ length: n }, (_, i) => anEvent(i + 1)),
    ),
  );
}

describe('PostgreSQL outbox relay', () => {
  it('When a batch is relayed, then each event gets one pending delivery row due now, with its type and sequence, and is marked relayed', async () => {
    const locationId = await givenSubscribedLocation();
    const events = await appendEvents(locationId, 3);

    await relayAll();

    const rows = await sql(
      `SELECT event_id, event_type, sequence::int AS sequence, status, attempt_count, generation, queued_generation,
              next_attempt_at <= clock_timestamp() AS due
         FROM webhook_deliveries WHERE location_id = $1 ORDER BY sequence`,
      [locationId],
    );
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
    await appendEvents(locationId, 1_000);

    await Promise.all([relayAll(50), relayAll(50), relayAll(50)]);

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
    await appendEvents(locationId, 2);
    await relayAll();

    await sql(`UPDATE outbox_events SET relayed_at = NULL WHERE location_id = $1`, [locationId]);
    const again = await store.pipeline.relay.relayBatch(500);

    expect(again.events).toBeGreaterThanOrEqual(2);
    expect(await deliveryRows(locationId)).toBe(2);
  });

  it('When the relay dies after claiming a batch and before committing it, then the next relay delivers every event of it', async () => {
    const locationId = await givenSubscribedLocation();
    await appendEvents(locationId, 5);
    // Holding this lock makes the relay block inside its transaction, after its claim.
    const blocker = new Client({ connectionString: store.database.url });
    blocker.on('error', () => undefined);
    await blocker.connect();
    await blocker.query('BEGIN');
    await blocker.query('LOCK TABLE webhook_deliveries IN EXCLUSIVE MODE');
    const dying = store.pipeline.relay.relayBatch(500);
    const rejected = expect(dying).rejects.toThrow();
    // Polled from another session: the blocker's transaction sees one statistics snapshot.
    await waitUntil(async () => {
      const rows = await sql<{ pid: number }>(
        `SELECT pid FROM pg_stat_activity
          WHERE datname = current_database() AND wait_event_type = 'Lock'
            AND query LIKE '%INSERT INTO webhook_deliveries%'`,
      );
      if (rows.length === 0) return false;
      await blocker.query('SELECT pg_terminate_backend($1)', [rows[0]!.pid]);
      return true;
    });
    await rejected;
    await blocker.query('ROLLBACK');
    await blocker.end();
    const claimedButLost = await unrelayed(locationId);

    await relayAll();

    expect(claimedButLost).toBe(5);
    expect(await unrelayed(locationId)).toBe(0);
    expect(await deliveryRows(locationId)).toBe(5);
  });
});

describe('PostgreSQL delivery leases and attempt log', () => {
  async function givenPendingDeliveries(n: number): Promise<{ locationId: string; ids: string[] }> {
    const locationId = await givenSubscribedLocation();
    await appendEvents(locationId, n);
    await relayAll();
    const rows = await sql<{ id: string }>(`SELECT id FROM webhook_deliveries WHERE location_id = $1`, [
      locationId,
    ]);
    return { locationId, ids: rows.map((r) => r.id) };
  }

  it('When a due delivery is claimed by id, then its due time moves a lease ahead on the database clock', async () => {
    const { ids } = await givenPendingDeliveries(1);

    await store.pipeline.leases.claimById(ids[0]!, 0, LEASE_MS);
    const second = await store.pipeline.leases.claimById(ids[0]!, 0, LEASE_MS);

    expect(second.kind).toBe('not-due');
    expect(second.kind === 'not-due' && second.dueAt.epochMillis() - Date.now()).toBeGreaterThan(
      LEASE_MS - 5_000,
    );
    expect(await secondsUntilDue(ids[0]!)).toBeGreaterThan(LEASE_MS / 1000 - 5);
  });

  it('When two pollers claim due deliveries at once, then they take disjoint sets, each at most its limit, together all', async () => {
    // Deliveries other tests left due would be claimed too: move them out of the way.
    await sql(
      `UPDATE webhook_deliveries SET next_attempt_at = now() + interval '1 hour' WHERE status = 'pending'`,
    );
    const { ids } = await givenPendingDeliveries(5);
    const mine = (claimed: ClaimedDelivery[]) => claimed.filter((c) => ids.includes(c.id));

    const [first, second] = await Promise.all([
      store.pipeline.leases.claimDue(3, LEASE_MS).then(mine),
      store.pipeline.leases.claimDue(100, LEASE_MS).then(mine),
    ]);
    const third = mine(await store.pipeline.leases.claimDue(100, LEASE_MS));

    expect(first.length).toBeLessThanOrEqual(3);
    expect(first.length + second.length).toBe(5);
    expect(new Set([...first, ...second].map((c) => c.id))).toEqual(new Set(ids));
    expect(third).toEqual([]);
  });

  it('When an attempt is recorded as a retry, then the attempt row is written and the delivery waits the delay on the database clock', async () => {
    const { ids } = await givenPendingDeliveries(1);
    const claim = await store.pipeline.leases.claimById(ids[0]!, 0, LEASE_MS);
    if (claim.kind !== 'claimed') throw new Error('not claimed');

    await store.pipeline.attempts.record(
      claim.delivery,
      {
        attemptedAt: Instant.fromEpochMillis(Date.now()),
        responseStatus: 502,
        durationMs: 12,
        error: 'the receiver answered 502',
      },
      { kind: 'retry', delayMs: 30_000 },
      { disableAfterFailingMs: 3_600_000, failingReason: 'failing for an hour' },
    );

    const attempts = await sql(
      `SELECT response_status, duration_ms, error FROM webhook_attempts WHERE delivery_id = $1`,
      [ids[0]],
    );
    expect(attempts).toEqual([{ response_status: 502, duration_ms: 12, error: 'the receiver answered 502' }]);
    expect(await secondsUntilDue(ids[0]!)).toBeGreaterThan(25);
    expect(await secondsUntilDue(ids[0]!)).toBeLessThan(31);
  });

  it('When successes are recorded while another transaction holds the healthy endpoint row, then they do not wait for it; a failure then writes it', async () => {
    const { locationId, ids } = await givenPendingDeliveries(3);
    const claimed = await store.pipeline.leases.claimDue(100, LEASE_MS);
    const mine = claimed.filter((c) => ids.includes(c.id));
    expect(mine).toHaveLength(3);
    const health = { disableAfterFailingMs: 3_600_000, failingReason: 'failing for an hour' };
    const holder = new Client({ connectionString: store.database.url });
    await holder.connect();
    await holder.query('BEGIN');
    await holder.query(`SELECT 1 FROM webhook_endpoints WHERE location_id = $1 FOR UPDATE`, [locationId]);
    let heldUntilRecorded = true;
    const deadline = setTimeout(() => {
      heldUntilRecorded = false;
      void holder.query('ROLLBACK');
    }, 10_000);
    const attempt = (status: number) => ({
      attemptedAt: Instant.fromEpochMillis(Date.now()),
      responseStatus: status,
      durationMs: 3,
      error: null,
    });

    await Promise.all(
      mine
        .slice(0, 2)
        .map((d) => store.pipeline.attempts.record(d, attempt(200), { kind: 'succeeded' }, health)),
    );
    clearTimeout(deadline);
    if (heldUntilRecorded) await holder.query('ROLLBACK');
    await store.pipeline.attempts.record(mine[2]!, attempt(500), { kind: 'retry', delayMs: 1_000 }, health);
    await holder.end();

    expect(heldUntilRecorded).toBe(true);
    const [endpoint] = await sql<{ failing: boolean }>(
      `SELECT failing_since IS NOT NULL AS failing FROM webhook_endpoints WHERE location_id = $1`,
      [locationId],
    );
    expect(endpoint).toEqual({ failing: true });
  });

  it('When many successes are recorded at once, then each delivery succeeded with exactly its own attempt row, and the endpoint stops failing', async () => {
    const { locationId, ids } = await givenPendingDeliveries(12);
    await sql(
      `UPDATE webhook_endpoints SET failing_since = clock_timestamp() - interval '1 minute' WHERE location_id = $1`,
      [locationId],
    );
    const claimed = (await store.pipeline.leases.claimDue(100, LEASE_MS)).filter((c) => ids.includes(c.id));
    const health = { disableAfterFailingMs: 3_600_000, failingReason: 'failing for an hour' };

    const answers = await Promise.all(
      claimed.map((d, i) =>
        store.pipeline.attempts.record(
          d,
          {
            attemptedAt: Instant.fromEpochMillis(Date.now()),
            responseStatus: 200,
            durationMs: i,
            error: null,
          },
          { kind: 'succeeded' },
          health,
        ),
      ),
    );

    expect(claimed).toHaveLength(12);
    expect(answers.every((a) => a.endpointDisabled === false)).toBe(true);
    const rows = await sql<{ id: string; status: string; attempt_count: number; attempts: number[] }>(
      `SELECT d.id, d.status, d.attempt_count,
              array(SELECT duration_ms FROM webhook_attempts a WHERE a.delivery_id = d.id) AS attempts
         FROM webhook_deliveries d WHERE d.location_id = $1`,
      [locationId],
    );
    expect(
      rows.map((r) => ({ ...r, attempts: r.attempts.length })).sort((a, b) => a.id.localeCompare(b.id)),
    ).toEqual([...ids].sort().map((id) => ({ id, status: 'succeeded', attempt_count: 1, attempts: 1 })));
    for (const [i, d] of claimed.entries()) {
      expect(rows.find((r) => r.id === d.id)?.attempts).toEqual([i]);
    }
    const [endpoint] = await sql<{ failing: boolean }>(
      `SELECT failing_since IS NOT NULL AS failing FROM webhook_endpoints WHERE location_id = $1`,
      [locationId],
    );
    expect(endpoint).toEqual({ failing: false });
  });

  it('When failures end together (retries, a final failure, a refused attempt, a 410), then they are recorded in at most two statements, each delivery with its own attempt row and state, the run of failures starting at the earliest, the endpoint disabled once', async () => {
    const { locationId, ids } = await givenPendingDeliveries(8);
    const claimed = (await store.pipeline.leases.claimDue(100, LEASE_MS)).filter((c) => ids.includes(c.id));
    expect(claimed).toHaveLength(8);
    const health = { disableAfterFailingMs: 3_600_000, failingReason: 'failing for an hour' };
    const statements = jest.spyOn(store.db, 'prepared');
    const startedAt = Date.now() - 10_000;
    const attempt = (i: number, status: number | null) => ({
      attemptedAt: Instant.fromEpochMillis(startedAt + i),
      responseStatus: status,
      durationMs: i,
      error: `failure ${i}`,
    });

    const answers = await Promise.all(
      claimed.map((d, i) =>
        i < 5
          ? store.pipeline.attempts.record(d, attempt(i, 502), { kind: 'retry', delayMs: 30_000 }, health)
          : i === 5
            ? store.pipeline.attempts.record(
                d,
                attempt(i, 500),
                { kind: 'failed', disableEndpoint: false },
                health,
              )
            : i === 6
              ? store.pipeline.attempts.record(
                  d,
                  attempt(i, null),
                  { kind: 'failed', disableEndpoint: false },
                  null,
                )
              : store.pipeline.attempts.record(
                  d,
                  attempt(i, 410),
                  { kind: 'failed', disableEndpoint: true },
                  health,
                ),
      ),
    );
    const recordings = statements.mock.calls.filter(
      ([name]) => name === 'pis_delivery_record_failures',
    ).length;
    statements.mockRestore();

    expect(recordings).toBeGreaterThanOrEqual(1);
    expect(recordings).toBeLessThanOrEqual(2);
    expect(answers.map((a) => a.endpointDisabled)).toEqual([
      false,
      false,
      false,
      false,
      false,
      false,
      false,
      true,
    ]);
    const rows = await sql<{
      id: string;
      status: string;
      attempt_count: number;
      due_in_s: number | null;
      errors: string[];
    }>(
      `SELECT d.id, d.status, d.attempt_count,
              round(extract(epoch FROM d.next_attempt_at - clock_timestamp()))::int AS due_in_s,
              array(SELECT error FROM webhook_attempts a WHERE a.delivery_id = d.id) AS errors
         FROM webhook_deliveries d WHERE d.location_id = $1`,
      [locationId],
    );
    const expected = claimed.map((d, i) => ({
      id: d.id,
      status: i < 5 ? 'pending' : 'failed',
      attempt_count: 1,
      due: i < 5,
      errors: [`failure ${i}`],
    }));
    expect(
      rows
        .map(({ due_in_s, ...r }) => ({ ...r, due: due_in_s !== null && due_in_s >= 25 && due_in_s <= 31 }))
        .sort((a, b) => a.id.localeCompare(b.id)),
    ).toEqual(expected.sort((a, b) => a.id.localeCompare(b.id)));
    const [endpoint] = await sql<{ failing_since_ms: number; disabled: boolean; disabled_reason: string }>(
      `SELECT (extract(epoch FROM failing_since) * 1000)::float8 AS failing_since_ms, disabled_at IS NOT NULL AS disabled, disabled_reason FROM webhook_endpoints WHERE location_id = $1`,
      [locationId],
    );
    expect(endpoint).toEqual({
      failing_since_ms: startedAt,
      disabled: true,
      disabled_reason: 'the receiver answered 410 Gone',
    });
  });

  it('When failures that end together come after failing as long as the policy allows, then the endpoint is disabled with that reason, and only one of them answers so', async () => {
    const { locationId, ids } = await givenPendingDeliveries(6);
    const claimed = (await store.pipeline.leases.claimDue(100, LEASE_MS)).filter((c) => ids.includes(c.id));
    const policy = {
      disableAfterFailingMs: 60_000,
      failingReason: 'every delivery attempt failed for a minute',
    };
    await sql(
      `UPDATE webhook_endpoints SET failing_since = clock_timestamp() - interval '2 minutes' WHERE location_id = $1`,
      [locationId],
    );
    const failure = { responseStatus: 500, durationMs: 3, error: 'the receiver answered 500' };

    const answers = await Promise.all(
      claimed.map((d) =>
        store.pipeline.attempts.record(
          d,
          { ...failure, attemptedAt: Instant.fromEpochMillis(Date.now()) },
          { kind: 'retry', delayMs: 1_000 },
          policy,
        ),
      ),
    );

    expect(claimed).toHaveLength(6);
    expect(answers.filter((a) => a.endpointDisabled)).toHaveLength(1);
    const [endpoint] = await sql(
      `SELECT disabled_at IS NOT NULL AS disabled, disabled_reason FROM webhook_endpoints WHERE location_id = $1`,
      [locationId],
    );
    expect(endpoint).toEqual({ disabled: true, disabled_reason: policy.failingReason });
  });

  it('When a PUT enabling a disabled endpoint commits while a 410 attempted before it waits for the endpoint row, then the 410 fails its delivery and leaves the endpoint enabled', async () => {
    const { locationId, ids } = await givenPendingDeliveries(1);
    const [claimed] = (await store.pipeline.leases.claimDue(100, LEASE_MS)).filter((c) => ids.includes(c.id));
    await sql(
      `UPDATE webhook_endpoints SET disabled_at = clock_timestamp(), disabled_reason = 'the receiver answered 410 Gone'
        WHERE location_id = $1`,
      [locationId],
    );
    const attemptedAt = Instant.fromEpochMillis(Date.now());
    await new Promise((resolve) => setTimeout(resolve, 5));
    // The PUT: it holds the endpoint row, changed, until the failure's statement waits for it.
    const put = new Client({ connectionString: store.database.url });
    await put.connect();
    await put.query('BEGIN');
    await put.query(
      `UPDATE webhook_endpoints SET disabled_at = NULL, disabled_reason = NULL, failing_since = NULL,
              updated_at = clock_timestamp() WHERE location_id = $1`,
      [locationId],
    );
    const recorded = store.pipeline.attempts.record(
      claimed!,
      { attemptedAt, responseStatus: 410, durationMs: 3, error: 'the receiver answered 410' },
      { kind: 'failed', disableEndpoint: true },
      { disableAfterFailingMs: 3_600_000, failingReason: 'failing for an hour' },
    );
    const waiting = async () =>
      (
        await sql<{ n: number }>(
          `SELECT count(*)::int AS n FROM pg_stat_activity
            WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE '%webhook_attempts%'`,
        )
      )[0]!.n;
    const deadline = Date.now() + 10_000;
    while ((await waiting()) === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    const waited = (await waiting()) === 1;
    await put.query('COMMIT');
    await put.end();
    const answer = await recorded;

    expect(waited).toBe(true);
    expect(answer.endpointDisabled).toBe(false);
    expect(await sql(`SELECT status FROM webhook_deliveries WHERE id = $1`, [ids[0]])).toEqual([
      { status: 'failed' },
    ]);
    expect(
      await sql(
        `SELECT disabled_at, disabled_reason, failing_since FROM webhook_endpoints WHERE location_id = $1`,
        [locationId],
      ),
    ).toEqual([{ disabled_at: null, disabled_reason: null, failing_since: null }]);
  });

  it('When two processes record failures at once for the same endpoints, then neither waits on the other in a circle: every attempt is recorded and every endpoint is failing', async () => {
    const other = createPersistence(store.db, { cipher: testCipher });
    const locations: { locationId: string; ids: string[] }[] = [];
    for (let i = 0; i < 4; i++) locations.push(await givenPendingDeliveries(30));
    const locationIds = locations.map((l) => l.locationId);
    const ids = locations.flatMap((l) => l.ids);
    const claimed = (await store.pipeline.leases.claimDue(500, LEASE_MS)).filter((c) => ids.includes(c.id));
    const health = { disableAfterFailingMs: 3_600_000, failingReason: 'failing for an hour' };
    const failure = { responseStatus: 503, durationMs: 3, error: 'the receiver answered 503' };

    await Promise.all(
      claimed.map((d, i) =>
        (i % 2 === 0 ? store : other).pipeline.attempts.record(
          d,
          { ...failure, attemptedAt: Instant.fromEpochMillis(Date.now()) },
          { kind: 'retry', delayMs: 60_000 },
          health,
        ),
      ),
    );

    expect(claimed).toHaveLength(120);
    const deliveries = await sql<{ status: string; attempt_count: number; n: number }>(
      `SELECT status, attempt_count, count(*)::int AS n FROM webhook_deliveries WHERE location_id = ANY($1)
        GROUP BY status, attempt_count`,
      [locationIds],
    );
    expect(deliveries).toEqual([{ status: 'pending', attempt_count: 1, n: 120 }]);
    const failing = await sql<{ n: number }>(
      `SELECT count(*)::int AS n FROM webhook_endpoints WHERE location_id = ANY($1) AND failing_since IS NOT NULL`,
      [locationIds],
    );
    expect(failing).toEqual([{ n: 4 }]);
  });

  it('When two processes claim the same deliveries by id at once, many claims in flight in each, then every delivery is claimed exactly once, with and without its carried event', async () => {
    const other = createPersistence(store.db, { cipher: testCipher });
    const { locationId, ids } = await givenPendingDeliveries(40);
    const carried = { locationId, endpointId: 'unused', event: {} as ClaimedDelivery['event'] };
    // Every delivery claimed twice by each process, interleaved, half of them as jobs carrying their event.
    const claims = ids.flatMap((id, i) =>
      [store, other, other, store].map((s) =>
        s.pipeline.leases.claimById(id, 0, LEASE_MS, i % 2 === 0 ? carried : undefined),
      ),
    );

    const answers = await Promise.all(claims);

    const claimedIds = answers.flatMap((a) => (a.kind === 'claimed' ? [a.delivery.id] : []));
    expect([...claimedIds].sort()).toEqual([...ids].sort());
    expect(answers.filter((a) => a.kind === 'not-due')).toHaveLength(ids.length * 3);
    const fromRow = answers.find((a) => a.kind === 'claimed' && a.delivery.event.id !== undefined);
    expect(fromRow?.kind === 'claimed' && fromRow.delivery.locationId).toBe(locationId);
    for (const id of ids) expect(await secondsUntilDue(id)).toBeGreaterThan(LEASE_MS / 1000 - 5);
  });

  it('When two processes record successes at once for the same failing endpoints, then neither waits on the other in a circle: every delivery succeeded and every run of failures ended', async () => {
    const other = createPersistence(store.db, { cipher: testCipher });
    // One after the other: relays running at once skip each other's locked events, so one
    // location's relay could return before another's had committed its deliveries.
    const locations: { locationId: string; ids: string[] }[] = [];
    for (let i = 0; i < 4; i++) locations.push(await givenPendingDeliveries(30));
    expect(locations.map((l) => l.ids.length)).toEqual([30, 30, 30, 30]);
    const locationIds = locations.map((l) => l.locationId);
    await sql(
      `UPDATE webhook_endpoints SET failing_since = clock_timestamp() - interval '1 minute' WHERE location_id = ANY($1)`,
      [locationIds],
    );
    const ids = locations.flatMap((l) => l.ids);
    const claimed = (await store.pipeline.leases.claimDue(500, LEASE_MS)).filter((c) => ids.includes(c.id));
    const health = { disableAfterFailingMs: 3_600_000, failingReason: 'failing for an hour' };
    const success = { responseStatus: 200, durationMs: 3, error: null };

    // Interleaved between the two processes, so each one's statements hold some of every endpoint's deliveries.
    await Promise.all(
      claimed.map((d, i) =>
        (i % 2 === 0 ? store : other).pipeline.attempts.record(
          d,
          { ...success, attemptedAt: Instant.fromEpochMillis(Date.now()) },
          { kind: 'succeeded' },
          health,
        ),
      ),
    );

    expect(claimed).toHaveLength(120);
    const statuses = await sql<{ status: string; n: number }>(
      `SELECT status, count(*)::int AS n FROM webhook_deliveries WHERE location_id = ANY($1) GROUP BY status`,
      [locationIds],
    );
    expect(statuses).toEqual([{ status: 'succeeded', n: 120 }]);
    const failing = await sql<{ n: number }>(
      `SELECT count(*)::int AS n FROM webhook_endpoints WHERE location_id = ANY($1) AND failing_since IS NOT NULL`,
      [locationIds],
    );
    expect(failing).toEqual([{ n: 0 }]);
  });
});

async function waitUntil(condition: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition never held');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
