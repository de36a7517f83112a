import { Pool } from 'pg';
import { poolOf } from '../src/db/typeorm-internals';
import { createTestDatabase, type TestDatabase } from '../src/test-support';

/*
 * Pins the TypeORM internals `db/typeorm-internals.ts` reads: the `pg` pools behind a
 * replicated PostgreSQL DataSource. A TypeORM upgrade that moves them fails here.
 */
describe('TypeORM internals the facade relies on', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase({ poolSize: 2 });
  });
  afterAll(async () => {
    await db?.drop();
  });

  it('When the DataSource is open, then the write and read pools are two distinct pg pools on its database', async () => {
    const write = poolOf(db.dataSource, 'master');
    const read = poolOf(db.dataSource, 'slave');

    expect(write).toBeInstanceOf(Pool);
    expect(read).toBeInstanceOf(Pool);
    expect(read).not.toBe(write);
    const names = await Promise.all(
      [write!, read!].map(
        async (pool) => (await pool.query('SELECT current_database() AS name')).rows[0].name,
      ),
    );
    expect(names).toEqual([new URL(db.url).pathname.slice(1), new URL(db.url).pathname.slice(1)]);
  });

  it('When a statement runs through a query runner of each mode, then it uses the pool poolOf names', async () => {
    const write = poolOf(db.dataSource, 'master')!;
    const read = poolOf(db.dataSource, 'slave')!;
    const before = [write.totalCount, read.totalCount];

    const runner = db.dataSource.createQueryRunner('slave');
    await runner.query('SELECT 1');
    const readerConnected = read.totalCount;
    await runner.release();

    expect(readerConnected).toBeGreaterThanOrEqual(Math.max(1, before[1]!));
    expect(write.totalCount).toBe(before[0]);
  });
});
