import { Client, Pool } from 'pg';
import { ServiceUnavailableError } from '@pis/domain';
import { QueryRunnerAlreadyReleasedError } from 'typeorm';
import { isConnectionFailure } from '../src/db/unavailable';
import { createTestDatabase, type TestDatabase } from '../src/test-support';

/*
 * Pins the driver behaviour `db/unavailable.ts` relies on: what `pg`, `pg-pool` and TypeORM
 * actually raise when the database cannot be reached. A driver upgrade that changes one of
 * them fails here instead of turning a 503 into a 500.
 */

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase({ poolSize: 2 });
});
afterAll(async () => {
  await db?.drop();
});

const failureOf = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error('expected a failure');
    },
    (error: unknown) => error,
  );

describe('Connection failures as the drivers raise them', () => {
  it('When nothing listens on the port, then connecting fails with ECONNREFUSED, a connection failure', async () => {
    const client = new Client({ connectionString: 'postgres://postgres@127.0.0.1:1/test' });

    const error = await failureOf(client.connect());

    expect(isConnectionFailure(error)).toBe(true);
  });

  it('When a pool was ended, then its queries fail with a connection failure', async () => {
    const pool = new Pool({ connectionString: db.url });
    await pool.end();

    const error = await failureOf(pool.query('SELECT 1'));

    expect((error as Error).message).toBe('Cannot use a pool after calling end on the pool');
    expect(isConnectionFailure(error)).toBe(true);
  });

  it('When no connection frees up in time, then the pool times out with a connection failure', async () => {
    // The timeout also bounds the first connect, which a loaded machine can take a while to make.
    const pool = new Pool({ connectionString: db.url, max: 1, connectionTimeoutMillis: 2000 });
    const held = await pool.connect();
    try {
      const error = await failureOf(pool.connect());

      expect((error as Error).message).toBe('timeout exceeded when trying to connect');
      expect(isConnectionFailure(error)).toBe(true);
    } finally {
      held.release();
      await pool.end();
    }
  });

  it("When the server ends a client's session, then its next query fails with a connection failure", async () => {
    const client = new Client({ connectionString: db.url });
    client.on('error', () => undefined);
    await client.connect();
    const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    await db.dataSource.query('SELECT pg_terminate_backend($1)', [rows[0]!.pid]);
    await new Promise((resolve) => setTimeout(resolve, 100));

    const error = await failureOf(client.query('SELECT 1'));

    expect(isConnectionFailure(error)).toBe(true);
  });

  it('When TypeORM released a query runner after a connection error, then using it is a connection failure', () => {
    expect(isConnectionFailure(new QueryRunnerAlreadyReleasedError())).toBe(true);
  });

  it('When a statement itself is wrong, then it is not a connection failure', async () => {
    const error = await failureOf(db.dataSource.query('SELECT * FROM no_such_table'));

    expect(isConnectionFailure(error)).toBe(false);
    expect(isConnectionFailure(new Error('Connection terminated by a user of ours'))).toBe(false);
  });
});

describe('Database: failures to reach the database leave as ServiceUnavailableError', () => {
  it('When a statement is wrong, then its own error comes through unchanged', async () => {
    const error = await failureOf(db.database.query('SELECT * FROM no_such_table'));

    expect(error).not.toBeInstanceOf(ServiceUnavailableError);
    expect((error as Error).message).toMatch(/no_such_table/);
  });

  it('When the pools are gone, then every way in raises ServiceUnavailableError with the cause kept', async () => {
    const other = await createTestDatabase({ poolSize: 1 });
    await other.dataSource.destroy();

    const failures = await Promise.all([
      failureOf(other.database.query('SELECT 1')),
      failureOf(other.database.prepared('pis_test_one', 'SELECT 1', [])),
      failureOf(other.database.transaction((sql) => sql.rows('SELECT 1'))),
      failureOf(other.database.read((sql) => sql.rows('SELECT 1'))),
      failureOf(other.database.snapshot((sql) => sql.rows('SELECT 1'))),
    ]);
    await other.drop();

    for (const error of failures) {
      expect(error).toBeInstanceOf(ServiceUnavailableError);
      expect((error as ServiceUnavailableError).service).toBe('database');
      expect((error as Error).cause).toBeDefined();
    }
  });
});
