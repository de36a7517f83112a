import { DataSource, MigrationExecutor } from 'typeorm';
import type { PostgresDataSourceOptions } from 'typeorm/driver/postgres/PostgresDataSourceOptions';
import { MIGRATIONS } from './migrations';
import { pgliteDriver } from './pglite-driver';
import { ENTITY_SCHEMAS } from './schemas';
import { keepTimestampText } from './timestamp-text';
import { pgTypeParsers } from './type-parsers';

/**
 * PostgreSQL through `pg` (two pools of `poolSize` connections each, default 10: one for
 * units of work, one for read-side queries), or embedded PGlite persisted in a directory.
 */
export type DatabaseTarget =
  { databaseUrl: string; poolSize?: number; applicationName?: string } | { dataDir: string };

export interface DataSourceSettings {
  /** TypeORM query logging (to the console); off by default. */
  logging?: boolean;
}

const DEFAULT_POOL_SIZE = 10;

/**
 * An initialised TypeORM DataSource with every EntitySchema, sessions in TimeZone=UTC and
 * instants kept as text with microseconds. It never synchronises the schema and never runs
 * migrations by itself: call `runMigrations`.
 */
export async function createDataSource(
  target: DatabaseTarget,
  settings: DataSourceSettings = {},
): Promise<DataSource> {
  const common = {
    type: 'postgres',
    entities: ENTITY_SCHEMAS,
    migrations: MIGRATIONS,
    synchronize: false,
    migrationsRun: false,
    installExtensions: false,
    logging: settings.logging ?? false,
  } as const;
  if ('databaseUrl' in target) {
    // Two pools on the same database, expressed as TypeORM replication: units of work take
    // the "master" pool, read-side queries the "slave" one (see DbSession).
    const credentials = { url: target.databaseUrl };
    const options: PostgresDataSourceOptions = {
      ...common,
      replication: { master: credentials, slaves: [credentials], defaultMode: 'master' },
      poolSize: target.poolSize ?? DEFAULT_POOL_SIZE,
      applicationName: target.applicationName ?? 'pis',
      extra: {
        options: '-c TimeZone=UTC -c default_transaction_isolation=read\\ committed',
        types: pgTypeParsers,
      },
    };
    return open(new DataSource(options));
  }
  const embedded = pgliteDriver(target.dataDir);
  try {
    return await open(new DataSource({ ...common, driver: embedded.driver }));
  } catch (error) {
    embedded.abandon();
    throw error;
  }
}

async function open(dataSource: DataSource): Promise<DataSource> {
  keepTimestampText(dataSource);
  return dataSource.initialize();
}

/** Any constant will do, as long as nothing else in the database uses it as an advisory lock key. */
const MIGRATION_LOCK = 764_000_001;

/**
 * Applies pending migrations, each in its own transaction, and answers their names. An
 * advisory lock on the same session keeps two processes (API and worker start together)
 * from applying the same migration twice.
 */
export async function runMigrations(dataSource: DataSource): Promise<string[]> {
  const runner = dataSource.createQueryRunner();
  try {
    await runner.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    try {
      const executor = new MigrationExecutor(dataSource, runner);
      executor.transaction = 'each';
      return (await executor.executePendingMigrations()).map((migration) => migration.name);
    } finally {
      await runner.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]);
    }
  } finally {
    await runner.release();
  }
}
