import { randomUUID } from 'node:crypto';
import { createPersistence } from '../src';
import { MIGRATIONS } from '../src/migrations';
import { createTestDatabase, type TestDatabase } from '../src/test-support';
import { testCipher, undoMigrationsThrough } from './support/harness';

/** Orders and events as the first release stored them, migrated to the till's check. */
describe('migration TillCheck1764200000000', () => {
  let db: TestDatabase;
  const locationId = randomUUID();
  const itemised = randomUUID();
  const unaccounted = randomUUID();
  const empty = randomUUID();
  const eventId = randomUUID();

  beforeAll(async () => {
    db = await createTestDatabase({ poolSize: 1 });
    const ds = db.dataSource;
    // Back to the schema before this migration (later ones are undone first).
    await undoMigrationsThrough(ds, 'TillCheck1764200000000');
    await ds.query(
      `INSERT INTO locations (id, name, brand, currency, created_at) VALUES ($1, 'Old', 'old', 'EUR', now())`,
      [locationId],
    );
    const insert = (id: string, spend: number, items: unknown[], status = 'open') =>
      ds.query(
        `INSERT INTO orders (id, location_id, table_ids, covers, spend_minor, currency, status, items, opened_at)
         VALUES ($1, $2, '{}', 2, $3, 'EUR', $4, $5, '2026-11-21T19:00:00.000001Z')`,
        [id, locationId, spend, status, JSON.stringify(items)],
      );
    await insert(itemised, 2350, [
      { label: 'Pizza', amountMinor: 1200, quantity: 1 },
      { label: 'Lemonade', amountMinor: 575, quantity: 2 },
    ]);
    await insert(unaccounted, 990, [], 'closed');
    await insert(empty, 0, []);
    await ds.query(
      `INSERT INTO outbox_events (id, location_id, sequence, type, occurred_at, data)
       VALUES ($1, $2, 1, 'table.spend_updated', now(), $3)`,
      [
        eventId,
        locationId,
        JSON.stringify({
          tableIds: ['t'],
          orderId: itemised,
          reservationExternalId: null,
          spendMinor: 2350,
          currency: 'EUR',
          covers: 2,
          occurredAt: '2026-11-21T19:00:00.000Z',
        }),
      ],
    );
    await ds.runMigrations({ transaction: 'each' });
  });
  afterAll(() => db.drop());

  const read = (id: string) =>
    createPersistence(db.database, { cipher: testCipher }).queries.orders.findById(locationId, id);

  it('When it ran, then every migration is applied again, this one included', async () => {
    const applied = await db.dataSource.query(`SELECT name FROM migrations ORDER BY id`);
    expect(applied.map((m: { name: string }) => m.name)).toEqual(MIGRATIONS.map((m) => m.name));
  });

  it('When an order had items, then each keeps its label, amount and quantity, gains an id, rate 0, course other, and the total is the old spend', async () => {
    const order = await read(itemised);

    expect(order!.check.items).toEqual([
      {
        id: expect.any(String),
        label: 'Pizza',
        quantity: 1,
        amountMinor: 1200,
        taxRateBps: 0,
        course: 'other',
        voided: false,
      },
      {
        id: expect.any(String),
        label: 'Lemonade',
        quantity: 2,
        amountMinor: 575,
        taxRateBps: 0,
        course: 'other',
        voided: false,
      },
    ]);
    expect(new Set(order!.check.items.map((i) => i.id)).size).toBe(2);
    expect(order).toMatchObject({
      spendMinor: 2350,
      serviceStatus: null,
      check: { totalMinor: 2350, discounts: [], payments: [] },
    });
  });

  it('When an order had a spend its items did not account for, then the spend becomes one item', async () => {
    const order = await read(unaccounted);

    expect(order!.check.items).toEqual([
      {
        id: expect.any(String),
        label: 'Spend before itemised checks',
        quantity: 1,
        amountMinor: 990,
        taxRateBps: 0,
        course: 'other',
        voided: false,
      },
    ]);
    expect(order).toMatchObject({ status: 'closed', spendMinor: 990 });
  });

  it('When an order had nothing, then its check is empty', async () => {
    expect((await read(empty))!.check).toMatchObject({ items: [], totalMinor: 0 });
  });

  it('When a table.spend_updated event was retained, then it gains the totals of a check without tax, discounts or payments', async () => {
    const [row] = await db.dataSource.query(`SELECT data FROM outbox_events WHERE id = $1`, [eventId]);

    expect(row.data.totals).toEqual({
      subtotalMinor: 2350,
      discountMinor: 0,
      taxMinor: 0,
      tipMinor: 0,
      paidMinor: 0,
      balanceMinor: 2350,
    });
  });
});
