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
  const pool = poolOf(dataSource, 'master');
  if (pool !== null) {
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

/**
 * The `pg` pool behind a PostgreSQL DataSource: `master` for units of work, `slave` for the
 * read side (see `createDataSource`); null on PGlite, or when reads have no pool of their own.
 */
export function poolOf(dataSource: DataSource, role: 'master' | 'slave'): Pool | null {
  const driver = dataSource.driver as { master?: unknown; slaves?: unknown[]; isReplicated: boolean };
  const pool = role === 'master' ? driver.master : driver.isReplicated ? driver.slaves?.[0] : undefined;
  return pool instanceof Pool ? pool : null;
}
