import { AsyncLocalStorage } from 'node:async_hooks';
import type { DataSource, QueryRunner } from 'typeorm';
import { poolOf } from './prepared-statements';
import { Sql } from './sql';

/**
 * Where read-side queries run.
 *
 * On PostgreSQL the DataSource has a second pool for reads (see `createDataSource`): queries
 * never run in a unit of work's transaction, so they see committed state only, and a query
 * made inside a unit of work (use cases do, e.g. `findLocation` while seating) never waits
 * for a second connection from the pool whose connections the transactions hold, which
 * would deadlock once every connection is held by such a transaction.
 *
 * Embedded PGlite is one session: a query made inside a unit of work runs on that unit of
 * work's query runner (the only way it can run at all), and so sees its writes.
 */
export class DbSession {
  private readonly ambient = new AsyncLocalStorage<QueryRunner>();

  constructor(readonly dataSource: DataSource) {}

  /** Runs `work` as the unit of work of `runner`. */
  within<T>(runner: QueryRunner, work: () => Promise<T>): Promise<T> {
    return this.ambient.run(runner, work);
  }

  /** One statement, or several that need no common snapshot. */
  read<T>(work: (sql: Sql) => Promise<T>): Promise<T> {
    return this.onReader(work, false);
  }

  /**
   * One statement on the read pool as a named prepared statement (parsed and planned once per
   * connection), skipping the query-runner machinery: for the read side's hot queries. Where
   * reads share the unit of work's session (PGlite), it runs as `read` does.
   */
  async prepared<T>(name: string, text: string, values: unknown[]): Promise<T[]> {
    const pool = poolOf(this.dataSource, 'slave');
    if (pool === null) return this.read((sql) => sql.rows<T>(text, values));
    return (await pool.query({ name, text, values })).rows as T[];
  }

  /** Several statements that must agree with each other: one read-only REPEATABLE READ snapshot. */
  snapshot<T>(work: (sql: Sql) => Promise<T>): Promise<T> {
    return this.onReader(work, true);
  }

  private async onReader<T>(work: (sql: Sql) => Promise<T>, consistent: boolean): Promise<T> {
    const separateReads = this.dataSource.driver.isReplicated;
    const current = separateReads ? undefined : this.ambient.getStore();
    if (current) return work(new Sql(current));
    const runner = this.dataSource.createQueryRunner(separateReads ? 'slave' : 'master');
    try {
      if (!consistent) return await work(new Sql(runner));
      await runner.startTransaction('REPEATABLE READ');
      const result = await work(new Sql(runner));
      await runner.commitTransaction();
      return result;
    } catch (error) {
      if (runner.isTransactionActive) await runner.rollbackTransaction().catch(() => undefined);
      throw error;
    } finally {
      await runner.release();
    }
  }
}
