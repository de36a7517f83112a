import { Sql, statementRunner, type StatementRunner } from '@pis/persistence';
import type { DataSource } from 'typeorm';

/** One statement outside an explicit transaction (it is its own); its rows, RETURNING rows for writes. */
export async function statement<T>(db: DataSource, text: string, params: unknown[] = []): Promise<T[]> {
  const runner = db.createQueryRunner();
  try {
    return await new Sql(runner).rows<T>(text, params);
  } finally {
    await runner.release();
  }
}

const runners = new WeakMap<DataSource, StatementRunner>();

/**
 * One statement outside an explicit transaction, as a named prepared statement on the pool
 * (parsed and planned once per connection, no query runner): for the statements every
 * delivery attempt runs. On PGlite it runs as `statement` does.
 */
export async function preparedStatement<T>(
  db: DataSource,
  name: string,
  text: string,
  params: unknown[],
): Promise<T[]> {
  let run = runners.get(db);
  if (run === undefined) {
    run = statementRunner(db);
    runners.set(db, run);
  }
  return run<T>(name, text, params);
}

/** Commits when `work` resolves, rolls back when it throws. */
export async function transaction<T>(db: DataSource, work: (sql: Sql) => Promise<T>): Promise<T> {
  const runner = db.createQueryRunner();
  try {
    await runner.startTransaction();
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
