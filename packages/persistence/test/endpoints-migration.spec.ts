import { randomUUID } from 'node:crypto';
import {
  createWebhookEndpoint,
  getWebhookEndpoint,
  listWebhookEndpoints,
  registerWebhookEndpoint,
  type Deps,
} from '@pis/domain';
import { anEvent, commit, expectOk, givenLocationRow } from '@pis/testing';
import { createPersistence, type Persistence } from '../src';
import { MIGRATIONS } from '../src/migrations';
import { createTestDatabase, type TestDatabase } from '../src/test-support';
import { depsOver, testCipher, undoMigrationsThrough } from './support/harness';

const MIGRATION = 'SeveralWebhookEndpoints1765000000000';
const TABLES = ['webhook_endpoints', 'webhook_deliveries', 'webhook_attempts'];
/** Columns this migration adds, left out when rows are compared with what was there before. */
const ADDED = ['provider_id', 'description', 'singleton'];

/** A location's one endpoint and its delivery log, written by the previous release. */
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
    return rows.map((row) => Object.fromEntries(Object.entries(row).filter(([c]) => !ADDED.includes(c))));
  };

  beforeAll(async () => {
    db = await createTestDatabase({ poolSize: 2 });
    await undoMigrationsThrough(db.dataSource, MIGRATION);
    const q = (text: string, params: unknown[] = []) => db.dataSource.query(text, params);
    const earlier = createPersistence(db.database, { cipher: testCipher });
    locationId = (await givenLocationRow(earlier.uow)).id;
    // The previous release's outbox row, in SQL: today's outbox writes columns that later
    // migrations add.
    const first = anEvent(1);
    const [event] = (await q(
      `INSERT INTO outbox_events (id, location_id, sequence, type, occurred_at, data)
       VALUES (gen_random_uuid(), $1, 1, $2, $3, $4) RETURNING id`,
      [locationId, first.type, first.occurredAt.toIso(), JSON.stringify(first.data)],
    )) as { id: string }[];
    await q(`UPDATE locations SET event_sequence = 1 WHERE id = $1`, [locationId]);
    await q(
      `INSERT INTO webhook_endpoints (id, location_id, url, events, secrets, created_at, updated_at)
       VALUES ($1, $2, 'https://old.example.com/hooks', ARRAY['table.occupied'], $3, now(), now())`,
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
    before = Object.fromEntries(await Promise.all(TABLES.map(async (t) => [t, await rowsOf(t)] as const)));
    await db.dataSource.runMigrations({ transaction: 'each' });
    store = createPersistence(db.database, { cipher: testCipher });
    deps = depsOver(store);
  });
  afterAll(() => db.drop());

  it('When it ran, then every migration is applied again, this one included', async () => {
    const applied = await db.dataSource.query(`SELECT name FROM migrations ORDER BY id`);
    expect(applied.map((m: { name: string }) => m.name)).toEqual(MIGRATIONS.map((m) => m.name));
  });

  it('When the endpoint and its deliveries are read again, then every row is there with every value it had, the endpoint the singleton of the location’s own provider', async () => {
    for (const table of TABLES) expect(await rowsOf(table)).toEqual(before[table]);
    const [row] = await db.dataSource.query(
      `SELECT provider_id, description, singleton FROM webhook_endpoints WHERE id = $1`,
      [endpointId],
    );
    expect(row).toEqual({ provider_id: locationId, description: null, singleton: true });
  });

  it('When the singleton routes and the new ones act on the location, then PUT keeps the old endpoint and its secret, and another endpoint joins it in the fan-out', async () => {
    const read = expectOk(await getWebhookEndpoint(deps, { locationId }));
    expect(read).toMatchObject({ id: endpointId, singleton: true, secrets: [{ secret, expiresAt: null }] });
    const put = expectOk(
      await registerWebhookEndpoint(deps, { locationId, url: 'https://new.example.com/hooks', events: null }),
    );
    expect(put.id).toBe(endpointId);
    const added = expectOk(
      await createWebhookEndpoint(deps, {
        locationId,
        providerId: locationId,
        url: 'https://more.example.com/hooks',
        events: null,
        description: null,
      }),
    );
    const listed = expectOk(await listWebhookEndpoints(deps, { locationId, providerId: locationId }));
    expect(listed.map((e) => e.id).sort()).toEqual([endpointId, added.id].sort());

    const [event] = await commit(store.uow, (tx) => tx.outbox.append(locationId, [anEvent(2)]));
    while ((await store.pipeline.relay.relayBatch(500)).events > 0);
    const made = await db.dataSource.query(
      `SELECT endpoint_id FROM webhook_deliveries WHERE event_id = $1 ORDER BY endpoint_id`,
      [event!.id],
    );
    expect(made.map((d: { endpoint_id: string }) => d.endpoint_id)).toEqual([endpointId, added.id].sort());
  });
});
