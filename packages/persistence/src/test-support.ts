/**
 * A fresh, migrated PostgreSQL database per test file, for this package and for every
 * package whose tests need the real schema (API, webhooks worker):
 *
 *   import { createTestDatabase } from '@pis/persistence/test-support';
 *   const db = await createTestDatabase();      // beforeAll
 *   ... db.database (the facade), db.dataSource (initialised, migrated), db.url ...
 *   await db.drop();                            // afterAll
 *
 * The server is `PIS_TEST_DATABASE_URL` (default `postgres://postgres@127.0.0.1:5432/test`,
 * trust auth, allowed to create databases). Each database is cloned with `CREATE DATABASE
 * ... TEMPLATE` from `pis_template_<hash of the migrations>`, built once (an advisory lock
 * keeps parallel Jest workers from building it twice) and rebuilt whenever a migration
 * changes. Clones are named `pis_test_<pid>_<random>`; clones of processes that died
 * without dropping theirs are dropped by the next `createTestDatabase`.
 */
import { createHash, randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';
import type { DataSource } from 'typeorm';
import { createDataSource, runMigrations } from './db/data-source';
import { Database } from './db/database';

export interface TestDatabase {
  /** Connection string of the new database. */
  url: string;
  /** An initialised DataSource on it (`createDataSource` with `poolSize`, default 5); `drop` destroys it. */
  dataSource: DataSource;
  /** The facade over `dataSource`, listening on `url`. */
  database: Database;
  /** Closes the DataSource and drops the database. */
  drop(): Promise<void>;
}

export interface TestDatabaseOptions {
  poolSize?: number;
  /**
   * Session defaults of the new database (`ALTER DATABASE ... SET name = value`), e.g.
   * `{ TimeZone: 'Asia/Kathmandu' }` to show that nothing depends on a UTC session.
   */
  settings?: Record<string, string>;
}

const SERVER_URL = process.env['PIS_TEST_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';
const TEMPLATE_LOCK = 764_000_002;
const CLONE_PREFIX = 'pis_test_';

export async function createTestDatabase(options: TestDatabaseOptions = {}): Promise<TestDatabase> {
  const name = `${CLONE_PREFIX}${process.pid}_${randomBytes(6).toString('hex')}`;
  await withAdmin(async (admin) => {
    await admin.query('SELECT pg_advisory_lock($1)', [TEMPLATE_LOCK]);
    try {
      const template = await ensureTemplate(admin);
      await dropOrphans(admin);
      await admin.query(`CREATE DATABASE ${name} TEMPLATE ${template}`);
      for (const [setting, value] of Object.entries(options.settings ?? {})) {
        if (!/^[A-Za-z_]+$/.test(setting)) throw new Error(`not a setting name: ${setting}`);
        await admin.query(`ALTER DATABASE ${name} SET ${setting} = ${quoteLiteral(value)}`);
      }
    } finally {
      await admin.query('SELECT pg_advisory_unlock($1)', [TEMPLATE_LOCK]);
    }
  });
  const url = databaseUrl(name);
  const dataSource = await createDataSource({ databaseUrl: url, poolSize: options.poolSize ?? 5 });
  const database = new Database(dataSource, { listenUrl: url, applicationName: 'pis-test-listener' });
  return {
    url,
    dataSource,
    database,
    async drop() {
      await database.close();
      await withAdmin((admin) => admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    },
  };
}

/** The template's name carries a hash of the migration sources, so a changed migration gets a new template. */
export function templateName(): string {
  const dir = join(__dirname, 'migrations');
  const hash = createHash('sha256');
  for (const file of readdirSync(dir)
    .filter((f) => f.endsWith('.ts'))
    .sort()) {
    hash.update(file).update(readFileSync(join(dir, file)));
  }
  return `pis_template_${hash.digest('hex').slice(0, 16)}`;
}

/** Marked IS_TEMPLATE only once migrated, so a build that died half-way is rebuilt. */
async function ensureTemplate(admin: Client): Promise<string> {
  const name = templateName();
  const found = await admin.query<{ datistemplate: boolean }>(
    'SELECT datistemplate FROM pg_database WHERE datname = $1',
    [name],
  );
  if (found.rows[0]?.datistemplate === true) return name;
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${name}`);
  const dataSource = await createDataSource({ databaseUrl: databaseUrl(name), poolSize: 1 });
  try {
    await runMigrations(dataSource);
  } finally {
    await dataSource.destroy();
  }
  await admin.query(`ALTER DATABASE ${name} WITH IS_TEMPLATE true`);
  return name;
}

async function dropOrphans(admin: Client): Promise<void> {
  const clones = await admin.query<{ datname: string }>(
    `SELECT datname FROM pg_database WHERE datname LIKE '${CLONE_PREFIX}%'`,
  );
  for (const { datname } of clones.rows) {
    const pid = Number(datname.slice(CLONE_PREFIX.length).split('_')[0]);
    if (Number.isInteger(pid) && pid > 0 && !isAlive(pid)) {
      await admin.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`);
    }
  }
}

/** Whether a process with this pid exists (EPERM: it does, owned by another user). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function quoteLiteral(value: string): string {
  return `'${value.replace(/'/g, "''")}'`;
}

function databaseUrl(name: string): string {
  const url = new URL(SERVER_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

async function withAdmin<T>(work: (admin: Client) => Promise<T>): Promise<T> {
  const admin = new Client({ connectionString: SERVER_URL });
  await admin.connect();
  try {
    return await work(admin);
  } finally {
    await admin.end();
  }
}
