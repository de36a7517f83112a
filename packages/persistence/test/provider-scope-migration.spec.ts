import { randomUUID } from 'node:crypto';
import {
  createProvider,
  createWebhookEndpoint,
  getWebhookEndpoint,
  grantConnection,
  listWebhookEndpoints,
  type Deps,
} from '@pis/domain';
import { anEvent, commit, expectOk, givenLocationRow } from '@pis/testing';
import { createPersistence, type Persistence } from '../src';
import { MIGRATIONS } from '../src/migrations';
import { createTestDatabase, type TestDatabase } from '../src/test-support';
import { depsOver, testCipher, undoMigrationsThrough } from './support/harness';

const MIGRATION = 'ProviderScopeEndpoints1765200000000';
const TABLES = ['outbox_events', 'webhook_endpoints', 'webhook_deliveries', 'webhook_attempts'];
/** Columns this migration adds, by table, left out when rows are compared with what was there before. */
const ADDED: Record<string, string[]> = { outbox_events: ['provider_id'] };

/**
 * A location's endpoints, events and delivery log written by the previous release; after the
 * migration (provider-scope endpoints, connection events) every row reads as it did, and both
 * new kinds work beside them. Undoing it keeps the old rows too.
 */
describe(`migration ${MIGRATION}`, () => {
  let db: TestDatabase;
  let store: Persistence;
  let deps: Deps;
  let locationId: string;
  const endpointId = randomUUID();
  const deliveryId = randomUUID();
  const secret = `whsec_${Buffer.from('kept-secret-kept-secret-kept-sec').toString('base64')}`;
  let before: Record<string, unknown[]>;

  const rowsOf = async (table: string) => {
    const rows: Record<string, unknown>[] = await db.dataSource.query(
      `SELECT * FROM ${table} ORDER BY 1::text`,
    );
    return rows.map((row) =>
      Object.fromEntries(Object.entries(row).filter(([c]) => !(ADDED[table] ?? []).includes(c))),
    );
  };
  const snapshot = async () =>
    Object.fromEntries(await Promise.all(TABLES.map(async (t) => [t, await rowsOf(t)] as const)));

  beforeAll(async () => {
    db = await createTestDatabase({ poolSize: 2 });
    await undoMigrationsThrough(db.dataSource, MIGRATION);
    const q = (text: string, params: unknown[] = []) => db.dataSource.query(text, params);
    const earlier = createPersistence(db.database, { cipher: testCipher });
    locationId = (await givenLocationRow(earlier.uow)).id;
    // The previous release's rows, in SQL: today's writers name columns this migration adds.
    const first = anEvent(1);
    const [event] = (await q(
      `INSERT INTO outbox_events (id, location_id, sequence, type, occurred_at, data, relayed_at)
       VALUES (gen_random_uuid(), $1, 1, $2, $3, $4, now()) RETURNING id`,
      [locationId, first.type, first.occurredAt.toIso(), JSON.stringify(first.data)],
    )) as { id: string }[];
    await q(`UPDATE locations SET event_sequence = 1 WHERE id = $1`, [locationId]);
    await q(
      `INSERT INTO webhook_endpoints (id, location_id, provider_id, singleton, description, url, events, secrets,
                                      created_at, updated_at)
       VALUES ($1, $2, $2, true, NULL, 'https://old.example.com/hooks', ARRAY['table.occupied'], $3, now(), now())`,
      [endpointId, locationId, JSON.stringify([{ secret: testCipher.encrypt(secret), expiresAt: null }])],
    );
    await q(
      `INSERT INTO webhook_deliveries (id, location_id, endpoint_id, event_id, event_type, sequence, status,
         attempt_count, next_attempt_at, generation, queued_generation, created_at, updated_at)
       VALUES ($1, $2, $3, $4, 'table.occupied', 1, 'succeeded', 1, NULL, 0, 0, now(), now())`,
      [deliveryId, locationId, endpointId, event!.id],
    );
    await q(
      `INSERT INTO webhook_attempts (delivery_id, attempted_at, response_status, duration_ms, error)
       VALUES ($1, now(), 204, 12, NULL)`,
      [deliveryId],
    );
    before = await snapshot();
    await db.dataSource.runMigrations({ transaction: 'each' });
    store = createPersistence(db.database, { cipher: testCipher });
    deps = depsOver(store);
  });
  afterAll(() => db.drop());

  it('When it ran, then every migration is applied again, this one included', async () => {
    const applied = await db.dataSource.query(`SELECT name FROM migrations ORDER BY id`);
    expect(applied.map((m: { name: string }) => m.name)).toEqual(MIGRATIONS.map((m) => m.name));
  });

  it('When the rows are read again, then every one is there with every value it had, and the old event is a location event', async () => {
    expect(await snapshot()).toEqual(before);
    const [row] = await db.dataSource.query(`SELECT provider_id FROM outbox_events`);
    expect(row).toEqual({ provider_id: null });
    const read = expectOk(await getWebhookEndpoint(deps, { locationId }));
    expect(read).toMatchObject({ id: endpointId, locationId, secrets: [{ secret, expiresAt: null }] });
  });

  it('When a provider connects and keeps a provider-scope endpoint, then the grant and the location’s next event reach it beside the old endpoint; undone, the old rows stay', async () => {
    const provider = expectOk(await createProvider(deps, { name: 'Booker', brand: 'booker' }));
    const wide = expectOk(
      await createWebhookEndpoint(deps, {
        locationId: null,
        providerId: provider.id,
        url: 'https://wide.example.com/hooks',
        events: null,
        description: null,
      }),
    );
    expect(wide.events).toContain('connection.granted');
    expectOk(await grantConnection(deps, { locationId, providerId: provider.id }));
    const listed = expectOk(await listWebhookEndpoints(deps, { locationId: null, providerId: provider.id }));
    expect(listed.map((e) => e.id)).toEqual([wide.id]);

    const [event] = await commit(store.uow, (tx) => tx.outbox.append(locationId, [anEvent(2)]));
    while ((await store.pipeline.relay.relayBatch(500)).events > 0);
    const made = await db.dataSource.query(
      `SELECT endpoint_id, event_type, sequence FROM webhook_deliveries
        WHERE event_id = $1 OR event_type LIKE 'connection.%' ORDER BY event_type, endpoint_id`,
      [event!.id],
    );
    expect(made).toEqual(
      [
        { endpoint_id: wide.id, event_type: 'connection.granted', sequence: null },
        { endpoint_id: wide.id, event_type: event!.type, sequence: 2 },
        { endpoint_id: endpointId, event_type: event!.type, sequence: 2 },
      ].sort((a, b) => a.event_type.localeCompare(b.event_type) || (a.endpoint_id < b.endpoint_id ? -1 : 1)),
    );

    await undoMigrationsThrough(db.dataSource, MIGRATION);
    const kept = await db.dataSource.query(
      `SELECT id FROM webhook_deliveries WHERE id = $1 UNION ALL SELECT id FROM webhook_endpoints WHERE id = $2`,
      [deliveryId, endpointId],
    );
    expect(kept).toHaveLength(2);
    const gone = await db.dataSource.query(`SELECT count(*)::int AS n FROM webhook_endpoints WHERE id = $1`, [
      wide.id,
    ]);
    expect(gone).toEqual([{ n: 0 }]);
    await db.dataSource.runMigrations({ transaction: 'each' });
  });
});
