import {
  createReservation,
  listOrders,
  listReservations,
  openWalkInOrder,
  readEventFeed,
  readTableState,
  updateReservation,
  type Deps,
  type ReservationInput,
} from '@pis/domain';
import {
  aReservationInput,
  anEvent,
  at,
  commit,
  expectOk,
  givenLocationRow,
  givenPublishedLocation,
} from '@pis/testing';
import { createPersistence, InProcessWritePositions, openDatabase, type Database } from '../src';
import { LocalReplica } from '../src/local-replica';
import { createTestDatabase, type TestDatabase } from '../src/test-support';
import { depsOver, testCipher } from './support/harness';

jest.setTimeout(240_000);

/*
 * Reads of one location on a real streaming replica of the test server (pg_basebackup -R,
 * pg_ctl on its own port), routed by the rule of decision 0195: the replica serves a
 * location's reads once it has replayed that location's last write; the primary otherwise,
 * and whenever the replica is down, behind, or fails the read.
 */

let replica: LocalReplica;
let database: TestDatabase;
/** Reads may go to the replica; the lag allowed is an hour, so only read-your-writes decides. */
let routed: Database;
let deps: Deps;
/** The same database without a replica: what the primary answers. */
let primary: Deps;

beforeAll(async () => {
  replica = await LocalReplica.start();
  database = await createTestDatabase({ poolSize: 2 });
  await replica.caughtUp();
  routed = await openDatabase(
    { databaseUrl: database.url, poolSize: 4 },
    {
      replica: {
        url: replica.url(database.url),
        maxLagMs: 3_600_000,
        positions: new InProcessWritePositions(),
        poolSize: 4,
      },
    },
  );
  deps = depsOver(createPersistence(routed, { cipher: testCipher }));
  primary = depsOver(createPersistence(database.database, { cipher: testCipher }));
  await until('the replica serves reads', async () => routed.replicaStatus()?.state === 'serving');
});
afterAll(async () => {
  await routed?.close();
  await database?.drop();
  await replica?.destroy();
});

const day = { from: at('2026-11-21T00:00:00Z'), to: at('2026-11-22T00:00:00Z'), limit: 100, after: null };
const feed = { after: 0, limit: 1_000, types: null };

/** Reads routed so far, as `source:reason` counts. */
function reads(): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const r of routed.replicaStatus()?.reads ?? []) counts[`${r.source}:${r.reason}`] = r.count;
  return counts;
}

/** How many reads `act` routed, by `source:reason`. */
async function routedBy(act: () => Promise<unknown>): Promise<Record<string, number>> {
  const before = reads();
  await act();
  const after = reads();
  return Object.fromEntries(
    Object.entries(after)
      .map(([key, n]) => [key, n - (before[key] ?? 0)] as const)
      .filter(([, n]) => n > 0),
  );
}

async function until(what: string, check: () => Promise<boolean>, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Until the replica has everything written so far (a read behind the routing's last poll asks it again). */
const replicaHasAll = () => replica.caughtUp();

/** The location's window, feed, table state and orders, as the use cases answer them. */
async function everything(d: Deps, locationId: string) {
  return {
    window: expectOk(await listReservations(d, { locationId, ...day })).items,
    feed: expectOk(await readEventFeed(d, { locationId, ...feed })),
    tables: expectOk(await readTableState(d, { locationId })),
    orders: expectOk(await listOrders(d, { locationId, status: null })).orders,
  };
}

describe('Reads on a read replica', () => {
  it('When the replica has replayed a location, then its window, feed, table state and orders are read there, and answer what the primary does', async () => {
    const location = await givenPublishedLocation(primary);
    expectOk(
      await createReservation(primary, {
        locationId: location.locationId,
        input: booking({ tableIds: [location.tableIds[0]!], status: 'seated' }),
      }),
    );
    await replicaHasAll();
    const scansBefore = await replicaIndexScans();

    let answered: Awaited<ReturnType<typeof everything>> | null = null;
    const counted = await routedBy(async () => {
      answered = await everything(deps, location.locationId);
    });

    expect(counted).toEqual({ 'replica:caught_up': 4 });
    expect(answered).toEqual(await everything(primary, location.locationId));
    expect(answered!.window).toHaveLength(1);
    expect(answered!.feed.events.map((e) => e.type)).toEqual(['floorplan.published', 'table.occupied']);
    // The replica's own statistics saw the reads (they reach pg_stat_* within a few seconds).
    await until('the replica counts index scans of the read tables', async () => {
      const scans = await replicaIndexScans();
      return ['reservations', 'outbox_events', 'orders'].every((t) => scans[t]! > scansBefore[t]!);
    });
  });

  it('When replay is paused, then a read after a write of that location is exact (the primary answers it), and a location written before the pause is read on the replica', async () => {
    const written = await givenPublishedLocation(primary);
    const untouched = await givenPublishedLocation(primary);
    const stale = expectOk(
      await createReservation(primary, { locationId: untouched.locationId, input: booking() }),
    ).reservation;
    await replicaHasAll();
    await replica.pauseReplay();
    try {
      // Every write below is made on behalf of `written`, as a request of its key would be.
      const as = <T>(locationId: string, work: () => Promise<T>) => routed.onBehalfOf(locationId, work);
      const created = await as(written.locationId, async () =>
        expectOk(await createReservation(deps, { locationId: written.locationId, input: booking() })),
      );
      const afterCreate = await routedBy(() =>
        as(written.locationId, () => listReservations(deps, { locationId: written.locationId, ...day })),
      );
      const seated = await as(written.locationId, async () =>
        expectOk(
          await openWalkInOrder(deps, {
            locationId: written.locationId,
            tableIds: [written.tableIds[1]!],
            covers: 2,
          }),
        ),
      );
      let seen: Awaited<ReturnType<typeof everything>> | null = null;
      const afterSeat = await routedBy(async () => {
        seen = await as(written.locationId, () => everything(deps, written.locationId));
      });
      // A blind retry changes nothing, writes no WAL, and needs no primary afterwards.
      const retried = await as(untouched.locationId, async () =>
        expectOk(
          await updateReservation(deps, {
            locationId: untouched.locationId,
            externalId: stale.externalId,
            input: stale,
          }),
        ),
      );
      let untouchedSeen: Awaited<ReturnType<typeof everything>> | null = null;
      const afterRetry = await routedBy(async () => {
        untouchedSeen = await everything(deps, untouched.locationId);
      });

      expect(afterCreate).toEqual({ 'primary:recent_write': 1 });
      expect(afterSeat).toEqual({ 'primary:recent_write': 4 });
      expect(seen).toEqual(await everything(primary, written.locationId));
      expect(seen!.window.map((r) => r.externalId)).toContain(created.reservation.externalId);
      expect(seen!.orders.map((o) => o.id)).toContain(seated.id);
      expect(seen!.feed.events.at(-1)?.type).toBe('table.occupied');
      expect(retried.outcome).toBe('stale');
      expect(afterRetry).toEqual({ 'replica:caught_up': 4 });
      expect(untouchedSeen).toEqual(await everything(primary, untouched.locationId));
    } finally {
      await replica.resumeReplay();
    }
    await replicaHasAll();
    const resumed = await routedBy(() => everything(deps, written.locationId));
    expect(resumed).toEqual({ 'replica:caught_up': 4 });
  });

  it('When writers append to one location while the feed is read from the replica (and from the primary in turn), then it never skips or repeats a sequence', async () => {
    const location = await givenLocationRow(primary.uow);
    const writers = 8;
    const perWriter = 30;
    const write = async () => {
      for (let i = 0; i < perWriter; i++) {
        const n = 1 + (i % 3);
        await commit(primary.uow, (tx) =>
          tx.outbox.append(
            location.id,
            Array.from({ length: n }, (_, k) => anEvent(k + 1)),
          ),
        );
      }
    };
    const total = writers * (1 + 2 + 3) * (perWriter / 3);
    const seen: number[] = [];
    const pages: { from: 'replica' | 'primary'; after: number; sequences: number[] }[] = [];
    let writing = true;
    let stoppedAt = Infinity;
    const read = async () => {
      let after = 0;
      // Until every event was read (or, should one go missing, a minute after the writers stopped).
      for (let turn = 0; (writing || seen.length < total) && Date.now() < stoppedAt + 60_000; turn++) {
        // Every fourth page from the primary, the others routed (to the replica: nobody wrote
        // on behalf of this location, and any lag up to an hour is allowed here).
        const from = turn % 4 === 3 ? 'primary' : 'replica';
        const page = expectOk(
          await readEventFeed(from === 'primary' ? primary : deps, {
            locationId: location.id,
            after,
            limit: 37,
            types: null,
          }),
        );
        const sequences = page.events.map((e) => e.sequence);
        pages.push({ from, after, sequences });
        seen.push(...sequences);
        after = page.nextAfter;
        if (sequences.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
      }
    };

    const counted = await routedBy(async () => {
      const reader = read();
      await Promise.all(Array.from({ length: writers }, write));
      writing = false;
      stoppedAt = Date.now();
      await reader;
    });

    expect(seen).toEqual(Array.from({ length: total }, (_, i) => i + 1));
    for (const page of pages) {
      expect(page.sequences).toEqual(page.sequences.map((_, i) => page.after + 1 + i));
    }
    expect(counted['replica:caught_up']).toBeGreaterThan(0);
    expect(Object.keys(counted)).toEqual(['replica:caught_up']);
    expect(pages.filter((p) => p.from === 'replica' && p.sequences.length > 0).length).toBeGreaterThan(0);
  });

  it('When the replica falls further behind than DATABASE_READ_MAX_LAG_MS, then reads go to the primary and the status says lagging, until it catches up', async () => {
    const strict = await openDatabase(
      { databaseUrl: database.url, poolSize: 2 },
      {
        replica: {
          url: replica.url(database.url),
          maxLagMs: 200,
          positions: new InProcessWritePositions(),
          poolSize: 2,
        },
      },
    );
    try {
      const strictDeps = depsOver(createPersistence(strict, { cipher: testCipher }));
      const location = await givenPublishedLocation(primary);
      await until('the replica serves reads', async () => strict.replicaStatus()?.state === 'serving');
      await replica.pauseReplay();
      try {
        // Something to fall behind on.
        expectOk(await createReservation(primary, { locationId: location.locationId, input: booking() }));
        await until('the replica is lagging', async () => strict.replicaStatus()?.state === 'lagging');
        const before = strict.replicaStatus()!.reads.find((r) => r.reason === 'lagging')?.count ?? 0;
        const read = expectOk(
          await listReservations(strictDeps, { locationId: location.locationId, ...day }),
        );
        const after = strict.replicaStatus()!.reads.find((r) => r.reason === 'lagging')?.count ?? 0;

        expect(read.items).toHaveLength(1);
        expect(after - before).toBe(1);
        expect(strict.replicaStatus()!.lagSeconds).toBeGreaterThan(0.2);
      } finally {
        await replica.resumeReplay();
      }
      await until('the replica serves reads again', async () => strict.replicaStatus()?.state === 'serving');
    } finally {
      await strict.close();
    }
  });

  it('When the replica is stopped, then every read is answered by the primary (down), and once it is back the replica serves again', async () => {
    const location = await givenPublishedLocation(primary);
    expectOk(await createReservation(primary, { locationId: location.locationId, input: booking() }));
    await replicaHasAll();
    await replica.stop();
    try {
      // The first read may still choose the replica (the routing has not polled yet): it
      // fails there and is answered by the primary.
      const first = await routedBy(() => everything(deps, location.locationId));
      await until('the routing sees the replica down', async () => routed.replicaStatus()?.state === 'down');
      let answered: Awaited<ReturnType<typeof everything>> | null = null;
      const down = await routedBy(async () => {
        answered = await everything(deps, location.locationId);
      });

      expect(Object.keys(first).every((k) => k === 'primary:failed' || k === 'primary:down')).toBe(true);
      expect(down).toEqual({ 'primary:down': 4 });
      expect(answered).toEqual(await everything(primary, location.locationId));
      expect(routed.replicaStatus()!.lagSeconds).toBeNull();
    } finally {
      await replica.start();
    }
    await until('the replica serves reads again', async () => routed.replicaStatus()?.state === 'serving');
    await replicaHasAll();
    expect(await routedBy(() => everything(deps, location.locationId))).toEqual({ 'replica:caught_up': 4 });
  });
});

function booking(overrides: Partial<ReservationInput> = {}): ReservationInput {
  return aReservationInput({ startsAt: at('2026-11-21T19:00:00Z'), ...overrides });
}

/** Index scans per table of the test database, as the replica itself counts them. */
async function replicaIndexScans(): Promise<Record<string, number>> {
  const rows = await replica.query<{ relname: string; scans: number }>(
    database.url,
    `SELECT relname, (coalesce(idx_scan, 0) + coalesce(seq_scan, 0))::int AS scans FROM pg_stat_user_tables`,
  );
  return Object.fromEntries(rows.map((r) => [r.relname, r.scans]));
}
