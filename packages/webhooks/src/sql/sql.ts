import { Sql } from '@pis/persistence';
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
