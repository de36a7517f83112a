import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { createDataSource, openDatabase, runMigrations } from '../src';
import { MIGRATIONS } from '../src/migrations';
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

const NAMES = MIGRATIONS.map((m) => m.name);

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

    expect([...applied].sort((x, y) => y.length - x.length)).toEqual([NAMES, []]);
    expect(again).toEqual([]);
    expect(tables).toEqual([{ n: 15 }]);
  });

  it('When every migration is undone, then every table is gone and they can be applied again', async () => {
    const dataSource = await createDataSource({ databaseUrl: urlOf(name), poolSize: 1 });

    for (const _ of MIGRATIONS) await dataSource.undoLastMigration({ transaction: 'each' });
    const left = await dataSource.query(
      `SELECT count(*)::int AS n FROM information_schema.tables WHERE table_schema = 'public' AND table_name <> 'migrations'`,
    );
    const reapplied = await runMigrations(dataSource);
    await dataSource.destroy();

    expect(left).toEqual([{ n: 0 }]);
    expect(reapplied).toEqual(NAMES);
  });
});

describe('behind a transaction pooler', () => {
  const direct = `pis_direct_${randomBytes(4).toString('hex')}`;
  const odd = `pis_defaults_${randomBytes(4).toString('hex')}`;
  beforeAll(() =>
    admin(
      async (c) => void (await c.query(`CREATE DATABASE ${direct}`), await c.query(`CREATE DATABASE ${odd}`)),
    ),
  );
  afterAll(() =>
    admin(async (c) => {
      for (const db of [direct, odd]) await c.query(`DROP DATABASE IF EXISTS ${db} WITH (FORCE)`);
    }),
  );

  it('When the Database has a direct URL beside its pooled one, then migrations run on the direct session', async () => {
    const pooled = await createTestDatabase({ poolSize: 1 });
    const db = await openDatabase({ databaseUrl: pooled.url, directUrl: urlOf(direct), poolSize: 1 });

    const applied = await runMigrations(db);
    await db.close();
    await pooled.drop();
    const client = new Client({ connectionString: urlOf(direct) });
    await client.connect();
    const onDirect = (await client.query(`SELECT name FROM migrations`)).rows;
    await client.end();

    expect(applied).toEqual(MIGRATIONS.map((m) => m.name));
    expect(onDirect).toEqual(MIGRATIONS.map((m) => ({ name: m.name })));
  });

  it.each([
    ['default_transaction_isolation', 'serializable', /default_transaction_isolation is "serializable"/],
    ['DateStyle', 'SQL, DMY', /DateStyle is "SQL, DMY"/],
  ])(
    'When the database makes sessions default to %s %s, then opening it is refused, naming the setting',
    async (setting, value, message) => {
      await admin((c) => c.query(`ALTER DATABASE ${odd} SET ${setting} = '${value}'`));

      const opening = createDataSource({ databaseUrl: urlOf(odd), poolSize: 1 });

      await expect(opening).rejects.toThrow(message);
      await admin((c) => c.query(`ALTER DATABASE ${odd} RESET ${setting}`));
    },
  );
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
    expect(migrated).toEqual([NAMES.map((n) => ({ name: n })), NAMES.map((n) => ({ name: n }))]);
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
