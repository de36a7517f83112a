import { Pool } from 'pg';
import type { DataSource } from 'typeorm';

/*
 * The one place that reads TypeORM's unexported fields: the `pg` pools behind a
 * PostgreSQL DataSource. `test/typeorm-internals.spec.ts` pins what this relies on, so a
 * TypeORM upgrade that moves them fails there rather than silently losing the fast path.
 */

interface PostgresDriverFields {
  master?: unknown;
  slaves?: unknown[];
  isReplicated: boolean;
}

/**
 * The `pg` pool behind a PostgreSQL DataSource: `master` for units of work, `slave` for the
 * read side (see `createDataSource`); null on PGlite, or when reads have no pool of their own.
 */
export function poolOf(dataSource: DataSource, role: 'master' | 'slave'): Pool | null {
  const driver = dataSource.driver as unknown as PostgresDriverFields;
  const pool = role === 'master' ? driver.master : driver.isReplicated ? driver.slaves?.[0] : undefined;
  return pool instanceof Pool ? pool : null;
}
