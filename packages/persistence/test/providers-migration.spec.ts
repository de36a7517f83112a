import { createHash, randomUUID } from 'node:crypto';
import {
  authenticate,
  createProvider,
  createReservation,
  grantConnection,
  listReservations,
  readEventFeed,
  readTableState,
  type Deps,
} from '@pis/domain';
import { aReservationInput, at, expectOk } from '@pis/testing';
import { createPersistence } from '../src';
import { MIGRATIONS } from '../src/migrations';
import { createTestDatabase, type TestDatabase } from '../src/test-support';
import { depsOver, testCipher, undoMigrationsThrough } from './support/harness';

const MIGRATION = 'ProvidersAndConnections1764910000000';
/** The tables the earlier schema had, and so what must come through unchanged. */
const EARLIER_TABLES = [
  'locations',
  'api_keys',
  'floor_plans',
  'rooms',
  'dining_tables',
  'floor_plan_versions',
  'orders',
  'reservations',
  'outbox_events',
  'webhook_endpoints',
  'webhook_deliveries',
  'webhook_attempts',
];
/** Columns this migration adds, left out when rows are compared with what was there before. */
/** Columns this migration adds, and those later migrations add (`trace_context`). */
const ADDED = ['provider_id', 'connected_provider_id', 'mode', 'reservation_provider_id', 'trace_context'];

const plan = (id: string, label: string) => ({
  id,
  label,
  shape: 'round',
  seatCount: 4,
  minCovers: 1,
  maxCovers: 4,
  active: true,
  x: 10,
  y: 10,
  rotation: 0,
});

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/** Data written by the previous release, migrated to providers across venues. */
describe(`migration ${MIGRATION}`, () => {
  let db: TestDatabase;
  let deps: Deps;
  const live = randomUUID();
  const sandbox = randomUUID();
  const key = `old_sk_live_${'K'.repeat(40)}`;
  const revokedKey = `old_sk_live_${'R'.repeat(40)}`;
  const [keyId, revokedKeyId] = [randomUUID(), randomUUID()];
  const [seatedOrder, walkInOrder] = [randomUUID(), randomUUID()];
  const tableA = randomUUID();
  const tableB = randomUUID();
  let before: Record<string, unknown[]>;

  const rowsOf = async (table: string) => {
    const rows: Record<string, unknown>[] = await db.dataSource.query(
      `SELECT * FROM ${table} ORDER BY 1::text`,
    );
    return rows
      .map((row) => Object.fromEntries(Object.entries(row).filter(([column]) => !ADDED.includes(column))))
      .sort((x, y) => JSON.stringify(x).localeCompare(JSON.stringify(y)));
  };

  beforeAll(async () => {
    db = await createTestDatabase({ poolSize: 2 });
    const q = (text: string, params: unknown[] = []) => db.dataSource.query(text, params);
    await undoMigrationsThrough(db.dataSource, MIGRATION);

    for (const [id, isSandbox, sequence] of [
      [live, false, 2],
      [sandbox, true, 0],
    ] as const) {
      await q(
        `INSERT INTO locations (id, name, brand, currency, created_at, event_sequence, sandbox)
         VALUES ($1, $2, 'old', 'EUR', '2026-11-01T09:00:00.000001Z', $3, $4)`,
        [id, isSandbox ? 'Sandbox' : 'Live', sequence, isSandbox],
      );
      await q(
        `INSERT INTO floor_plans (location_id, published_version, published_at) VALUES ($1, 1, now())`,
        [id],
      );
    }
    const room = randomUUID();
    await q(
      `INSERT INTO rooms (id, location_id, external_id, name, sort_order, canvas_width, canvas_height)
       VALUES ($1, $2, 'R1', 'Hall', 0, 1000, 1000)`,
      [room, live],
    );
    for (const [id, label] of [
      [tableA, 'A'],
      [tableB, 'B'],
    ]) {
      await q(
        `INSERT INTO dining_tables (id, location_id, room_id, external_id, label, shape, seat_count, min_covers,
                                    max_covers, active, x, y, rotation, published_active)
         VALUES ($1, $2, $3, $4, $4, 'round', 4, 1, 4, true, 10, 10, 0, true)`,
        [id, live, room, label],
      );
    }
    await q(
      `INSERT INTO floor_plan_versions (location_id, version, published_at, snapshot) VALUES ($1, 1, now(), $2)`,
      [
        live,
        JSON.stringify({
          rooms: [{ id: room, name: 'Hall', order: 0, tables: [plan(tableA, 'A'), plan(tableB, 'B')] }],
        }),
      ],
    );
    for (const [id, text, revoked] of [
      [keyId, key, null],
      [revokedKeyId, revokedKey, '2026-11-02T00:00:00Z'],
    ]) {
      await q(
        `INSERT INTO api_keys (id, location_id, key_hash, prefix, created_at, revoked_at)
         VALUES ($1, $2, $3, 'old_sk_live_KKKK', now(), $4)`,
        [id, live, sha256(text!), revoked],
      );
    }
    const order = (id: string, table: string, externalId: string | null) =>
      q(
        `INSERT INTO orders (id, location_id, table_ids, covers, spend_minor, currency, status,
                             reservation_external_id, opened_at)
         VALUES ($1, $2, ARRAY[$3::uuid], 2, 0, 'EUR', 'open', $4, '2026-11-21T19:00:00.000001Z')`,
        [id, live, table, externalId],
      );
    await order(seatedOrder, tableA, 'r-1');
    await order(walkInOrder, tableB, null);
    await q(`UPDATE dining_tables SET open_order_id = $1 WHERE id = $2`, [seatedOrder, tableA]);
    await q(`UPDATE dining_tables SET open_order_id = $1 WHERE id = $2`, [walkInOrder, tableB]);
    const reservationRow = (location: string, externalId: string, status: string, linked: string | null) =>
      q(
        `INSERT INTO reservations (id, location_id, external_id, status, party_name, covers, starts_at, table_ids,
                                   updated_at, linked_order_id, received_at)
         VALUES (gen_random_uuid(), $1, $2, $3, 'Old party', 2, '2026-11-21T19:00:00Z', $4, '2026-11-20T10:00:00Z',
                 $5, now())`,
        [location, externalId, status, linked ? [tableA] : [], linked],
      );
    await reservationRow(live, 'r-1', 'seated', seatedOrder);
    await reservationRow(live, 'r-2', 'booked', null);
    await reservationRow(sandbox, 'r-1', 'confirmed', null);
    const event = (sequence: number, orderId: string, tableId: string, externalId: string | null) =>
      q(
        `INSERT INTO outbox_events (id, location_id, sequence, type, occurred_at, data)
         VALUES (gen_random_uuid(), $1, $2, 'table.occupied', now(), $3)`,
        [
          live,
          sequence,
          JSON.stringify({
            tableId,
            orderId,
            reservationExternalId: externalId,
            covers: 2,
            occurredAt: '2026-11-21T19:00:00.000Z',
          }),
        ],
      );
    await event(1, seatedOrder, tableA, 'r-1');
    await event(2, walkInOrder, tableB, null);

    before = Object.fromEntries(
      await Promise.all(EARLIER_TABLES.map(async (t) => [t, await rowsOf(t)] as const)),
    );
    await db.dataSource.runMigrations({ transaction: 'each' });
    deps = depsOver(createPersistence(db.database, { cipher: testCipher }));
  });
  afterAll(() => db.drop());

  it('When it ran, then every migration is applied again, this one included', async () => {
    const applied = await db.dataSource.query(`SELECT name FROM migrations ORDER BY id`);
    expect(applied.map((m: { name: string }) => m.name)).toEqual(MIGRATIONS.map((m) => m.name));
  });

  it('When the earlier tables are read again, then every row is there with every value it had', async () => {
    for (const table of EARLIER_TABLES)
      expect({ table, rows: await rowsOf(table) }).toEqual({ table, rows: before[table] });
  });

  it('When the providers are read, then every location got its own, named as it is, connected from its first event and never revoked', async () => {
    const providers = await db.dataSource.query(
      `SELECT p.id, p.name, p.brand, p.own_location_id, c.status, c.revoked_at, c.covered
         FROM providers p JOIN connections c ON c.provider_id = p.id AND c.location_id = p.own_location_id
        ORDER BY p.name`,
    );

    expect(providers).toEqual([
      {
        id: live,
        name: 'Live',
        brand: 'old',
        own_location_id: live,
        status: 'active',
        revoked_at: null,
        covered: '{[1,)}',
      },
      {
        id: sandbox,
        name: 'Sandbox',
        brand: 'old',
        own_location_id: sandbox,
        status: 'active',
        revoked_at: null,
        covered: '{[1,)}',
      },
    ]);
    expect(await deps.queries.access.findProvider(live)).toBeNull();
  });

  it('When the location keys are used, then the live one still authenticates its location and the revoked one is still refused', async () => {
    expect(expectOk(await authenticate(deps, { key }))).toEqual({ locationId: live, keyId, sandbox: false });
    expect(await authenticate(deps, { key: revokedKey })).toMatchObject({ ok: false, code: 'unauthorized' });
  });

  it('When the location key reads its reservations, feed and snapshot, then they are all its own, ids shown', async () => {
    const listed = expectOk(
      await listReservations(deps, {
        locationId: live,
        from: at('2026-11-21T00:00:00Z'),
        to: at('2026-11-22T00:00:00Z'),
        limit: 10,
        after: null,
      }),
    );
    const feed = expectOk(await readEventFeed(deps, { locationId: live, after: 0, limit: 10, types: null }));
    const state = await deps.queries.tableState.read(live);

    expect(listed.items.map((r) => [r.externalId, r.status, r.linkedOrderId]).sort()).toEqual([
      ['r-1', 'seated', seatedOrder],
      ['r-2', 'booked', null],
    ]);
    expect(
      feed.events.map((e) => [e.sequence, 'reservationExternalId' in e.data && e.data.reservationExternalId]),
    ).toEqual([
      [1, 'r-1'],
      [2, null],
    ]);
    expect(feed.events.map((e) => e.reservationProviderId)).toEqual([live, undefined]);
    expect(state.openOrders.map((o) => [o.id, o.reservationExternalId, o.reservationProviderId])).toEqual(
      expect.arrayContaining([
        [seatedOrder, 'r-1', live],
        [walkInOrder, null, undefined],
      ]),
    );
  });

  it('When a new provider is granted a migrated location, then r-1 is free for it, the old events are not in its feed, and the old order reads as a walk-in', async () => {
    const provider = expectOk(await createProvider(deps, { name: 'Newcomer', brand: 'newco' }));
    expectOk(await grantConnection(deps, { locationId: live, providerId: provider.id }));
    const input = aReservationInput({ externalId: 'r-1' });

    const theirs = await createReservation(deps, { locationId: live, providerId: provider.id, input });
    const again = await createReservation(deps, {
      locationId: live,
      input: aReservationInput({ externalId: 'r-1' }),
    });
    const feed = expectOk(
      await readEventFeed(deps, {
        locationId: live,
        providerId: provider.id,
        after: 0,
        limit: 10,
        types: null,
      }),
    );
    const state = expectOk(await readTableState(deps, { locationId: live, providerId: provider.id }));

    expect(expectOk(theirs).outcome).toBe('applied');
    expect(again).toMatchObject({ ok: false, code: 'duplicate_reservation' });
    expect(feed.events).toEqual([]);
    expect(state.tables.flatMap((t) => (t.order ? [t.order.reservationExternalId] : []))).toEqual([
      null,
      null,
    ]);
  });
});
