import { DataSource, MigrationExecutor } from 'typeorm';
import type { PostgresDataSourceOptions } from 'typeorm/driver/postgres/PostgresDataSourceOptions';
import { MIGRATIONS } from '../migrations';
import { ENTITY_SCHEMAS } from '../schemas';
import { Database } from './database';
import type { ReplicaSettings } from './replica-reads';
import { pgliteDriver } from './pglite-driver';
import { keepTimestampText } from './timestamp-text';
import { pgTypeParsers } from './type-parsers';

/**
 * PostgreSQL through `pg` (two pools of `poolSize` connections each, default 10: one for
 * units of work, one for read-side queries), or embedded PGlite persisted in a directory.
 */
export type DatabaseTarget = PostgresTarget | { dataDir: string };

export interface PostgresTarget {
  databaseUrl: string;
  poolSize?: number;
  applicationName?: string;
  /**
   * A direct session connection for what a transaction pooler cannot carry: LISTEN and the
   * migrations (with their session advisory lock). Default: `databaseUrl`.
   */
  directUrl?: string | null;
  /** Named prepared statements on the hot paths (default true; off behind a transaction pooler). */
  preparedStatements?: boolean;
}

export interface DataSourceSettings {
  /** TypeORM query logging (to the console); off by default. */
  logging?: boolean;
  /** Told when the listening connection was lost (it reconnects by itself). */
  onListenerLost?: (error: Error | undefined) => void;
  /** PostgreSQL only: a streaming replica that may serve reads of one location (decision 0195). */
  replica?: ReplicaSettings;
}

const DEFAULT_POOL_SIZE = 10;

/**
 * An initialised TypeORM DataSource with every EntitySchema and instants kept as UTC text
 * with microseconds. On PostgreSQL it sends no startup options (a transaction pooler such as
 * PgBouncer refuses them): rows are independent of the session's TimeZone (see the type
 * parsers), and the server defaults the service relies on are checked once here. It never
 * synchronises the schema and never runs migrations by itself: call `runMigrations`.
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
    // the "master" pool, read-side queries the "slave" one (see Database).
    const credentials = { url: target.databaseUrl };
    const options: PostgresDataSourceOptions = {
      ...common,
      replication: { master: credentials, slaves: [credentials], defaultMode: 'master' },
      poolSize: target.poolSize ?? DEFAULT_POOL_SIZE,
      applicationName: target.applicationName ?? 'pis',
      extra: { types: pgTypeParsers },
    };
    const dataSource = await open(new DataSource(options));
    try {
      await checkServerDefaults(dataSource);
    } catch (error) {
      await dataSource.destroy();
      throw error;
    }
    return dataSource;
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

/**
 * What sessions must default to, since no startup option can set it behind a pooler:
 * READ COMMITTED transactions (units of work start with a bare START TRANSACTION) and ISO
 * date output (what the type parsers read). Both are PostgreSQL's own defaults; a server,
 * database or role configured otherwise is refused at start rather than misread later.
 */
async function checkServerDefaults(dataSource: DataSource): Promise<void> {
  const [settings] = (await dataSource.query(
    `SELECT current_setting('default_transaction_isolation') AS isolation,
            current_setting('DateStyle') AS date_style`,
  )) as { isolation: string; date_style: string }[];
  const problems: string[] = [];
  if (settings?.isolation !== 'read committed') {
    problems.push(`default_transaction_isolation is "${settings?.isolation}", not "read committed"`);
  }
  if (!settings?.date_style.startsWith('ISO')) {
    problems.push(`DateStyle is "${settings?.date_style}", not ISO`);
  }
  if (problems.length > 0) {
    throw new Error(
      `the database's session defaults are not what the service needs: ${problems.join('; ')} ` +
        `(restore PostgreSQL's defaults, e.g. ALTER DATABASE ... RESET default_transaction_isolation)`,
    );
  }
}

/** Any constant will do, as long as nothing else in the database uses it as an advisory lock key. */
const MIGRATION_LOCK = 764_000_001;

/**
 * Applies pending migrations, each in its own transaction, and answers their names. An
 * advisory lock on the same session keeps two processes (API and worker start together)
 * from applying the same migration twice. Given a `Database` whose pools go through a
 * transaction pooler, they run on its direct session connection instead (`directUrl`).
 */
export async function runMigrations(source: DataSource | Database): Promise<string[]> {
  if (source instanceof Database) {
    if (source.migrationUrl === null) return runMigrations(source.dataSource);
    const direct = await createDataSource({
      databaseUrl: source.migrationUrl,
      poolSize: 1,
      applicationName: 'pis-migrations',
    });
    try {
      return await runMigrations(direct);
    } finally {
      await direct.destroy();
    }
  }
  const dataSource = source;
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

/** `createDataSource` wrapped in the `Database` facade (with its listening connection on PostgreSQL). */
export async function openDatabase(
  target: DatabaseTarget,
  settings: DataSourceSettings = {},
): Promise<Database> {
  const dataSource = await createDataSource(target, settings);
  if (!('databaseUrl' in target)) return new Database(dataSource, { listenUrl: null });
  const directUrl = target.directUrl ?? null;
  return new Database(dataSource, {
    listenUrl: directUrl ?? target.databaseUrl,
    migrationUrl: directUrl === target.databaseUrl ? null : directUrl,
    applicationName: `${target.applicationName ?? 'pis'}-listener`,
    preparedStatements: target.preparedStatements,
    onListenerLost: settings.onListenerLost,
    replica: settings.replica,
  });
}
