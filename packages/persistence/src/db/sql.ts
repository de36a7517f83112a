import type { PoolClient } from 'pg';
import type { EntitySchema, EntityManager, QueryRunner } from 'typeorm';

/** What the read side needs of a session: the rows of a statement, or its first row. */
export interface ReadSql {
  rows<T>(text: string, params?: unknown[]): Promise<T[]>;
  first<T>(text: string, params?: unknown[]): Promise<T | null>;
}

/**
 * Raw parameterised SQL on one query runner, with results shaped the same on `pg` and
 * PGlite (TypeORM's unstructured results differ by command), plus the EntitySchema
 * conversions for statements TypeORM's builders cannot express.
 */
export class Sql implements ReadSql {
  constructor(readonly runner: QueryRunner) {}

  get manager(): EntityManager {
    return this.runner.manager;
  }

  async rows<T>(text: string, params: unknown[] = []): Promise<T[]> {
    const result = await this.runner.query(text, params, true);
    return (result.records ?? []) as T[];
  }

  async first<T>(text: string, params: unknown[] = []): Promise<T | null> {
    return (await this.rows<T>(text, params))[0] ?? null;
  }

  /**
   * The column list and parameters of an INSERT of `rows` into the schema's table, each value
   * converted as TypeORM would (jsonb serialised, instants kept as text). `$n` numbering starts
   * after `offset` parameters.
   */
  insertValues<R extends object>(
    schema: EntitySchema<R>,
    rows: Partial<R>[],
    offset = 0,
  ): { columns: string; values: string; params: unknown[] } {
    const metadata = this.runner.connection.getMetadata(schema);
    const columns = metadata.columns.filter((c) => c.isInsert);
    const params: unknown[] = [];
    const tuples = rows.map((row) => {
      const placeholders = columns.map((column) => {
        const value = (row as Record<string, unknown>)[column.propertyName];
        params.push(this.runner.connection.driver.preparePersistentValue(value, column));
        return `$${offset + params.length}`;
      });
      return `(${placeholders.join(', ')})`;
    });
    return {
      columns: columns.map((c) => `"${c.databaseName}"`).join(', '),
      values: tuples.join(', '),
      params,
    };
  }

  /**
   * INSERTs `rows` into the schema's table in one statement, each value converted as
   * `insertValues` does; a property left undefined takes the column's default, as TypeORM's
   * `manager.insert` would.
   */
  async insert<R extends object>(schema: EntitySchema<R>, rows: Partial<R>[]): Promise<void> {
    if (rows.length === 0) return;
    const metadata = this.runner.connection.getMetadata(schema);
    const columns = metadata.columns.filter((c) => c.isInsert);
    const params: unknown[] = [];
    const tuples = rows.map((row) => {
      const placeholders = columns.map((column) => {
        const value = (row as Record<string, unknown>)[column.propertyName];
        if (value === undefined) return 'DEFAULT';
        params.push(this.runner.connection.driver.preparePersistentValue(value, column));
        return `$${params.length}`;
      });
      return `(${placeholders.join(', ')})`;
    });
    const names = columns.map((c) => `"${c.databaseName}"`).join(', ');
    await this.rows(`INSERT INTO "${metadata.tableName}" (${names}) VALUES ${tuples.join(', ')}`, params);
  }

  /**
   * UPDATEs the rows of the schema's table whose columns equal `where` to `fields` (a property
   * left undefined is left as it is), each value converted as TypeORM would. Answers how many
   * rows it changed.
   */
  async update<R extends object>(
    schema: EntitySchema<R>,
    where: Partial<R>,
    fields: Partial<R>,
  ): Promise<number> {
    const metadata = this.runner.connection.getMetadata(schema);
    const params: unknown[] = [];
    const bind = (values: Partial<R>, separator: string, editable: boolean) =>
      metadata.columns
        .filter(
          (c) =>
            (!editable || c.isUpdate) && (values as Record<string, unknown>)[c.propertyName] !== undefined,
        )
        .map((column) => {
          const value = (values as Record<string, unknown>)[column.propertyName];
          params.push(this.runner.connection.driver.preparePersistentValue(value, column));
          return `"${column.databaseName}" = $${params.length}`;
        })
        .join(separator);
    const set = bind(fields, ', ', true);
    const condition = bind(where, ' AND ', false);
    const changed = await this.rows(
      `UPDATE "${metadata.tableName}" SET ${set} WHERE ${condition} RETURNING 1`,
      params,
    );
    return changed.length;
  }
}

/**
 * `ReadSql` straight on a `pg` client: the read replica's pool, which TypeORM does not hold
 * (its DataSource would refuse to start while the replica is down). The pool parses types as
 * the DataSource's pools do, so rows have the same shape.
 */
export class ClientSql implements ReadSql {
  constructor(private readonly client: PoolClient) {}

  async rows<T>(text: string, params: unknown[] = []): Promise<T[]> {
    return (await this.client.query(text, params)).rows as T[];
  }

  async first<T>(text: string, params: unknown[] = []): Promise<T | null> {
    return (await this.rows<T>(text, params))[0] ?? null;
  }
}

/** Splits rows for multi-row statements (PostgreSQL takes at most 65535 parameters). */
export function chunks<T>(items: readonly T[], size = 1000): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
