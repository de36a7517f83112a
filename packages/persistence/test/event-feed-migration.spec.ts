import { randomUUID } from 'node:crypto';
import { MIGRATIONS } from '../src/migrations';
import { createTestDatabase, type TestDatabase } from '../src/test-support';
import { undoMigrationsThrough } from './support/harness';

const table = (id: string, label: string, active = true, seatCount = 4) => ({
  id,
  label,
  shape: 'round',
  seatCount,
  minCovers: 1,
  maxCovers: seatCount,
  active,
  x: 10,
  y: 10,
  rotation: 0,
});

/** floorplan.published events stored before `changes` existed gain theirs from the versions they announce. */
describe('migrations EventFeed1764510000000 and FloorplanPublishedChanges1764510000001', () => {
  let db: TestDatabase;
  const locationId = randomUUID();
  const [first, second] = [randomUUID(), randomUUID()];
  const [a, b, c] = [randomUUID(), randomUUID(), randomUUID()];

  beforeAll(async () => {
    db = await createTestDatabase({ poolSize: 1 });
    const ds = db.dataSource;
    // Back to the schema before this migration (later ones are undone first).
    await undoMigrationsThrough(ds, 'EventFeed1764510000000');
    await ds.query(
      `INSERT INTO locations (id, name, brand, currency, created_at) VALUES ($1, 'Old', 'old', 'EUR', now())`,
      [locationId],
    );
    const version = (n: number, tables: unknown[]) =>
      ds.query(
        `INSERT INTO floor_plan_versions (location_id, version, published_at, snapshot) VALUES ($1, $2, now(), $3)`,
        [locationId, n, JSON.stringify({ rooms: [{ id: 'room-1', name: 'Hall', order: 0, tables }] })],
      );
    await version(1, [table(a, 'A'), table(b, 'B')]);
    await version(2, [table(a, 'A1'), table(b, 'B', false), table(c, 'C', true, 6)]);
    const event = (id: string, sequence: number, n: number) =>
      ds.query(
        `INSERT INTO outbox_events (id, location_id, sequence, type, occurred_at, data)
         VALUES ($1, $2, $3, 'floorplan.published', now(), $4)`,
        [id, locationId, sequence, JSON.stringify({ version: n, publishedAt: '2026-11-21T19:00:00.000Z' })],
      );
    await event(first, 1, 1);
    await event(second, 2, 2);
    await ds.runMigrations({ transaction: 'each' });
  });
  afterAll(() => db.drop());

  it('When they ran, then every migration is applied again', async () => {
    const applied = await db.dataSource.query(`SELECT name FROM migrations ORDER BY id`);
    expect(applied.map((m: { name: string }) => m.name)).toEqual(MIGRATIONS.map((m) => m.name));
  });

  it('When floorplan.published events lacked changes, then each gains those of its version against the one before', async () => {
    const rows: { id: string; data: { changes: unknown } }[] = await db.dataSource.query(
      `SELECT id, data FROM outbox_events WHERE location_id = $1 ORDER BY sequence`,
      [locationId],
    );

    expect(rows.map((r) => r.data.changes)).toEqual([
      { added: [a, b], deactivated: [], reactivated: [], relabelled: [], updated: [] },
      {
        added: [c],
        deactivated: [b],
        reactivated: [],
        relabelled: [{ tableId: a, from: 'A', to: 'A1' }],
        updated: [],
      },
    ]);
  });
});
