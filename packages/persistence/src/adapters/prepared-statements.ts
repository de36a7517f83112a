import { Pool } from 'pg';
import type { DataSource } from 'typeorm';
import { Sql } from './sql';

/**
 * Runs one statement outside any unit of work. On PostgreSQL it goes straight to the
 * units-of-work pool as a named prepared statement (parsed and planned once per
 * connection), skipping the query-runner machinery: the hot path of provider writes. On
 * PGlite it goes through the DataSource, which serialises it with the single session.
 */
export type StatementRunner = <T>(name: string, text: string, params: unknown[]) => Promise<T[]>;

export function statementRunner(dataSource: DataSource): StatementRunner {
  const pool = (dataSource.driver as { master?: unknown }).master;
  if (pool instanceof Pool) {
    return async <T>(name: string, text: string, values: unknown[]) =>
      (await pool.query({ name, text, values })).rows as T[];
  }
  return async <T>(_name: string, text: string, params: unknown[]) => {
    const runner = dataSource.createQueryRunner();
    try {
      return await new Sql(runner).rows<T>(text, params);
    } finally {
      await runner.release();
    }
  };
}
