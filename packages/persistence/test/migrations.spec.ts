import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { createDataSource, runMigrations } from '../src';
import { createTestDatabase, templateName } from '../src/test-support';

const SERVER = process.env['PIS_TEST_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';

async function admin<T>(work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: SERVER });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

const urlOf = (name: string) => Object.assign(new URL(SERVER), { pathname: `/${name}` }).toString();

describe('migrations', () => {
  const name = `pis_migrations_${randomBytes(4).toString('hex')}`;
  beforeAll(() => admin((c) => c.query(`CREATE DATABASE ${name}`)));
  afterAll(() => admin((c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)));

  it('When two processes migrate an empty database at once, then one applies each migration and the other finds nothing to do', async () => {
    const [a, b] = await Promise.all(
      [1, 2].map(() => createDataSource({ databaseUrl: urlOf(name), poolSize: 1 })),
    );

    const applied = await Promise.all([runMigrations(a!), runMigrations(b!)]);
    const again = await runMigrations(a!);
    const tables = await a!.query(
      `SELECT count(*)::int AS n FROM information_schema.tables WHERE table_schema = 'public' AND table_name <> 'migrations'`,
    );
    await Promise.all([a!.destroy(), b!.destroy()]);

    expect([...applied].sort((x, y) => y.length - x.length)).toEqual([['InitialSchema1764000000000'], []]);
    expect(again).toEqual([]);
    expect(tables).toEqual([{ n: 12 }]);
  });

  it('When the initial migration is undone, then every table is gone and it can be applied again', async () => {
    const dataSource = await createDataSource({ databaseUrl: urlOf(name), poolSize: 1 });

    await dataSource.undoLastMigration({ transaction: 'each' });
    const left = await dataSource.query(
      `SELECT count(*)::int AS n FROM information_schema.tables WHERE table_schema = 'public' AND table_name <> 'migrations'`,
    );
    const reapplied = await runMigrations(dataSource);
    await dataSource.destroy();

    expect(left).toEqual([{ n: 0 }]);
    expect(reapplied).toEqual(['InitialSchema1764000000000']);
  });
});

describe('createTestDatabase', () => {
  it('When two are created at once, then each is its own migrated database, and drop removes it', async () => {
    const [one, two] = await Promise.all([
      createTestDatabase({ poolSize: 1 }),
      createTestDatabase({ poolSize: 1 }),
    ]);

    const names = [one, two].map((db) => new URL(db.url).pathname.slice(1));
    const migrated = await Promise.all(
      [one, two].map((db) => db.dataSource.query(`SELECT name FROM migrations ORDER BY id`)),
    );
    await Promise.all([one.drop(), two.drop()]);
    const remaining = await admin((c) =>
      c.query(`SELECT datname FROM pg_database WHERE datname = ANY($1)`, [names]),
    );

    expect(names[0]).not.toBe(names[1]);
    expect(migrated).toEqual([
      [{ name: 'InitialSchema1764000000000' }],
      [{ name: 'InitialSchema1764000000000' }],
    ]);
    expect(remaining.rows).toEqual([]);
  });

  it('When the template exists, then it is marked as a template and named after the migrations', async () => {
    const db = await createTestDatabase({ poolSize: 1 });
    await db.drop();

    const template = await admin((c) =>
      c.query(`SELECT datistemplate FROM pg_database WHERE datname = $1`, [templateName()]),
    );

    expect(templateName()).toMatch(/^pis_template_[0-9a-f]{16}$/);
    expect(template.rows).toEqual([{ datistemplate: true }]);
  });
});
