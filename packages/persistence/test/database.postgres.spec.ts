import { Client } from 'pg';
import { Database } from '../src/db/database';
import { createTestDatabase, type TestDatabase } from '../src/test-support';

describe('Database on PostgreSQL: LISTEN/NOTIFY, prepared statements, snapshots', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase({ poolSize: 2 });
  });
  afterAll(async () => {
    await db?.drop();
  });

  const waitFor = async (condition: () => boolean, timeoutMs = 5_000) => {
    const deadline = Date.now() + timeoutMs;
    while (!condition()) {
      if (Date.now() > deadline) throw new Error('condition never held');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  };

  it('When another process notifies a channel, then every subscriber of it hears the payload, and only of it', async () => {
    const heard: string[] = [];
    const offA = await db.database.listen('pis_test_a', (p) => heard.push(`a1:${p}`));
    const offA2 = await db.database.listen('pis_test_a', (p) => heard.push(`a2:${p}`));
    const offB = await db.database.listen('pis_test_b', (p) => heard.push(`b:${p}`));
    const other = new Client({ connectionString: db.url });
    await other.connect();

    await other.query(`SELECT pg_notify('pis_test_a', 'x')`);
    await waitFor(() => heard.length >= 2);
    await offA2();
    await other.query(`SELECT pg_notify('pis_test_a', 'y')`);
    await waitFor(() => heard.length >= 3);
    await other.end();
    await Promise.all([offA(), offB()]);

    expect(heard.sort()).toEqual(['a1:x', 'a1:y', 'a2:x']);
  });

  it('When the listening session is terminated, then it reconnects by itself, says so to every subscriber, and hears again', async () => {
    const heard: string[] = [];
    let connected = 0;
    const off = await db.database.listen(
      'pis_test_c',
      (p) => heard.push(p),
      () => (connected += 1),
    );
    const firstConnect = connected;

    await db.dataSource.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
        WHERE datname = current_database() AND application_name = 'pis-test-listener'`,
    );
    await waitFor(() => connected > firstConnect, 10_000);
    await db.database.notify('pis_test_c', 'after');
    await waitFor(() => heard.includes('after'));
    await off();

    expect(firstConnect).toBe(1);
  });

  it('When prepared statements are off (behind a transaction pooler), then the same statements run unnamed', async () => {
    const unnamed = new Database(db.dataSource, { listenUrl: null, preparedStatements: false });

    const rows = await unnamed.prepared<{ n: number }>('pis_test_prepared', 'SELECT $1::int + 1 AS n', [41]);
    const prepared = await db.dataSource.query(`SELECT count(*)::int AS n FROM pg_prepared_statements`);

    expect(rows).toEqual([{ n: 42 }]);
    expect(prepared).toEqual([{ n: 0 }]);
  });

  it('When the pools are asked their usage, then each reports its connections, the callers waiting and its size', async () => {
    const idle = db.database.poolUsage();
    const held = await db.database.transaction(async () => db.database.poolUsage());

    expect(idle.map((p) => [p.pool, p.max])).toEqual([
      ['write', 2],
      ['read', 2],
    ]);
    for (const usage of idle) expect(usage.idle).toBeLessThanOrEqual(usage.total);
    const write = held.find((p) => p.pool === 'write')!;
    expect(write.total - write.idle).toBeGreaterThanOrEqual(1);
    expect(write.waiting).toBe(0);
  });

  it('When a transaction throws or its value is refused, then nothing of it is kept', async () => {
    await db.database.query('CREATE TABLE IF NOT EXISTS pis_test_rows (n int)');

    await expect(
      db.database.transaction(async (sql) => {
        await sql.rows('INSERT INTO pis_test_rows VALUES (1)');
        throw new Error('no');
      }),
    ).rejects.toThrow('no');
    const refused = await db.database.transaction(
      async (sql) => (await sql.rows('INSERT INTO pis_test_rows VALUES (2) RETURNING n')).length,
      () => false,
    );
    await db.database.transaction((sql) => sql.rows('INSERT INTO pis_test_rows VALUES (3)'));

    expect(refused).toBe(1);
    expect(await db.database.query('SELECT n FROM pis_test_rows')).toEqual([{ n: 3 }]);
  });
});
