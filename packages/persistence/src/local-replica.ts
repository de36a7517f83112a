/**
 * A real streaming replica of the test server, for the suites and the benchmark that read
 * from one (`DATABASE_READ_URL`):
 *
 *   import { LocalReplica } from '@pis/persistence/test-support';
 *   const replica = await LocalReplica.start();      // beforeAll
 *   ... replica.url(db.url), replica.pauseReplay(), replica.stop(), replica.start() ...
 *   await replica.destroy();                         // afterAll
 *
 * `pg_basebackup -R` of the whole server into a temporary directory, started with `pg_ctl` on
 * a free loopback port (as user `postgres` when the tests run as root: the server refuses
 * root). What it needs from the primary, and changes there: a `replication` line in
 * pg_hba.conf (added, then `pg_reload_conf()`) and a free WAL sender. It streams through a
 * physical replication slot of its own (`pis_test_replica_<pid>_<n>`), so the primary keeps
 * the WAL a stopped replica needs to catch up; `destroy` drops it, and slots left by a test
 * process that died are dropped by the next `start`. The primary is never restarted and its
 * settings are not changed otherwise.
 */
import { appendFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { Client } from 'pg';
import { ServerDirectory } from './server-directory';
import { isAlive } from './test-support';

const SERVER_URL = process.env['PIS_TEST_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';
const SLOT_PREFIX = 'pis_test_replica_';
/**
 * Settings taken from the primary: those a hot standby must have at least as high, or it
 * refuses to start, and those that shape a read's plan and cost, so reads compare.
 */
const AS_ON_PRIMARY = [
  'max_connections',
  'max_worker_processes',
  'max_wal_senders',
  'max_prepared_transactions',
  'max_locks_per_transaction',
  'shared_buffers',
  'work_mem',
  'effective_cache_size',
  'random_page_cost',
  'jit',
];
const READY_TIMEOUT_MS = 120_000;

let started = 0;

export class LocalReplica {
  private constructor(
    readonly port: number,
    private readonly dir: ServerDirectory,
    readonly slot: string,
    private readonly serverUrl: string,
  ) {}

  /** `serverUrl`: any database of the server to replicate (default: the test server's). */
  static async start({ serverUrl = SERVER_URL }: { serverUrl?: string } = {}): Promise<LocalReplica> {
    const server = new URL(serverUrl);
    const slot = `${SLOT_PREFIX}${process.pid}_${++started}`;
    const { bin, settings } = await withPrimary(serverUrl, async (primary) => {
      await allowReplication(primary);
      await needFreeWalSender(primary);
      return { bin: await binaries(primary), settings: await primarySettings(primary) };
    });
    // Claiming stops the replicas of test processes that died; then their slots can go.
    const dir = ServerDirectory.claim('pis-replica-', bin);
    const replica = new LocalReplica(await freePort(), dir, slot, serverUrl);
    try {
      await withPrimary(serverUrl, dropOrphanSlots);
      await dir.run('pg_basebackup', [
        ...['-h', server.hostname, '-p', server.port || '5432', '-U', server.username || 'postgres'],
        ...['-D', dir.dataDir, '-R', '-X', 'stream', '-c', 'fast', '-C', '-S', slot],
      ]);
      dir.writeDataFile(
        'postgresql.conf',
        [
          `port = ${replica.port}`,
          `listen_addresses = '127.0.0.1'`,
          `unix_socket_directories = '${dir.dir}'`,
          'hot_standby = on',
          // A throwaway copy: nothing to keep over a crash of the machine.
          'fsync = off',
          ...Object.entries(settings).map(([name, value]) => `${name} = '${value}'`),
          '',
        ].join('\n'),
      );
      dir.writeDataFile('pg_hba.conf', 'local all all trust\nhost all all 127.0.0.1/32 trust\n');
      dir.writeDataFile('pg_ident.conf', '');
      await replica.start();
      return replica;
    } catch (error) {
      await replica.destroy().catch(() => undefined);
      throw error;
    }
  }

  /** `databaseUrl` (a database of the test server) on this replica. */
  url(databaseUrl: string): string {
    const url = new URL(databaseUrl);
    url.hostname = '127.0.0.1';
    url.port = String(this.port);
    return url.toString();
  }

  /** Starts the server (again) and waits until it accepts reads as a standby. */
  async start(): Promise<void> {
    // pg_ctl polls until the server accepts connections (a hot standby once consistent).
    await this.dir.run('pg_ctl', [
      'start',
      '-D',
      this.dir.dataDir,
      '-l',
      `${this.dir.dir}/server.log`,
      '-w',
      '-t',
      '120',
    ]);
    const deadline = Date.now() + READY_TIMEOUT_MS;
    for (;;) {
      const standby = await this.query<{ standby: boolean }>(
        'postgres',
        'SELECT pg_is_in_recovery() AS standby',
      ).then(
        (rows) => rows[0]?.standby === true,
        () => false,
      );
      if (standby) return;
      if (Date.now() > deadline) throw new Error(`the replica did not start:\n${this.dir.log()}`);
      await pause(100);
    }
  }

  /** Stops the server (fast: connections are ended); its data stays for `start`. */
  async stop(): Promise<void> {
    await this.dir.run('pg_ctl', ['stop', '-D', this.dir.dataDir, '-m', 'fast', '-w', '-t', '120']);
  }

  /** Waits until the replica has replayed everything the primary had written when called. */
  async caughtUp(timeoutMs = READY_TIMEOUT_MS): Promise<void> {
    const [row] = await withPrimary(
      this.serverUrl,
      async (primary) =>
        (await primary.query<{ lsn: string }>('SELECT pg_current_wal_insert_lsn()::text AS lsn')).rows,
    );
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const rows = await this.query<{ done: boolean }>(
        'postgres',
        'SELECT pg_last_wal_replay_lsn() >= $1::pg_lsn AS done',
        [row!.lsn],
      );
      if (rows[0]?.done === true) return;
      if (Date.now() > deadline) throw new Error(`the replica did not replay up to ${row!.lsn}`);
      await pause(20);
    }
  }

  async pauseReplay(): Promise<void> {
    await this.query('postgres', 'SELECT pg_wal_replay_pause()');
    for (;;) {
      const [row] = await this.query<{ state: string }>(
        'postgres',
        'SELECT pg_get_wal_replay_pause_state() AS state',
      );
      if (row?.state === 'paused') return;
      await pause(20);
    }
  }

  async resumeReplay(): Promise<void> {
    await this.query('postgres', 'SELECT pg_wal_replay_resume()');
  }

  /** One statement on a database of the replica (by name or by its URL on the test server). */
  async query<T>(database: string, text: string, params: unknown[] = []): Promise<T[]> {
    const name = database.includes('://') ? new URL(database).pathname.slice(1) : database;
    const client = new Client({ host: '127.0.0.1', port: this.port, user: 'postgres', database: name });
    client.on('error', () => undefined);
    await client.connect();
    try {
      return (await client.query(text, params)).rows as T[];
    } finally {
      await client.end();
    }
  }

  /** The server's log so far. */
  log(): string {
    return this.dir.log();
  }

  /** Stops the server, drops its slot on the primary and removes its directory. */
  async destroy(): Promise<void> {
    await this.dir.remove();
    await withPrimary(this.serverUrl, (primary) => dropSlot(primary, this.slot));
  }
}

/** A `replication` line beside the server's own rule for 127.0.0.1, with the same method. */
async function allowReplication(primary: Client): Promise<void> {
  const rules = async () =>
    (
      await primary.query<{ database: string[]; address: string | null; auth_method: string }>(
        `SELECT database, address, auth_method FROM pg_hba_file_rules WHERE type = 'host' AND error IS NULL`,
      )
    ).rows;
  const loopback = (r: { address: string | null }) => r.address === '127.0.0.1' || r.address === 'all';
  if ((await rules()).some((r) => loopback(r) && r.database.includes('replication'))) return;
  const method =
    (await rules()).find((r) => loopback(r) && r.database.includes('all'))?.auth_method ?? 'trust';
  const [{ hba_file: file } = { hba_file: '' }] = (await primary.query<{ hba_file: string }>('SHOW hba_file'))
    .rows;
  appendFileSync(file, `\nhost replication all 127.0.0.1/32 ${method}\n`);
  await primary.query('SELECT pg_reload_conf()');
  const deadline = Date.now() + 30_000;
  while (!(await rules()).some((r) => loopback(r) && r.database.includes('replication'))) {
    if (Date.now() > deadline) throw new Error(`${file}: the replication line was not loaded`);
    await pause(50);
  }
}

async function dropOrphanSlots(primary: Client): Promise<void> {
  const slots = await primary.query<{ slot_name: string }>(
    `SELECT slot_name FROM pg_replication_slots WHERE slot_name LIKE '${SLOT_PREFIX}%'`,
  );
  for (const { slot_name: slot } of slots.rows) {
    const pid = Number(slot.slice(SLOT_PREFIX.length).split('_')[0]);
    if (Number.isInteger(pid) && pid > 0 && !isAlive(pid)) await dropSlot(primary, slot);
  }
}

/** Drops `slot` once its WAL sender has gone (a stopped replica's sender exits soon after). */
async function dropSlot(primary: Client, slot: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const { rows } = await primary.query<{ active: boolean }>(
      'SELECT active FROM pg_replication_slots WHERE slot_name = $1',
      [slot],
    );
    if (rows.length === 0) return;
    if (!rows[0]!.active) {
      await primary.query('SELECT pg_drop_replication_slot($1)', [slot]).catch(() => undefined);
    } else if (Date.now() > deadline) {
      throw new Error(`replication slot ${slot} is still in use`);
    } else await pause(50);
  }
}

async function needFreeWalSender(primary: Client): Promise<void> {
  const [row] = (
    await primary.query<{ senders: number; used: number }>(
      `SELECT current_setting('max_wal_senders')::int AS senders, (SELECT count(*)::int FROM pg_stat_replication) AS used`,
    )
  ).rows;
  if (row === undefined || row.used >= row.senders) {
    throw new Error(`the test server has no free WAL sender (max_wal_senders = ${row?.senders})`);
  }
}

/** The server's own programs: `PIS_TEST_PG_BIN`, else Debian's directory of its major version. */
async function binaries(primary: Client): Promise<string> {
  if (process.env['PIS_TEST_PG_BIN']) return process.env['PIS_TEST_PG_BIN'];
  const [row] = (
    await primary.query<{ version: string }>(`SELECT current_setting('server_version_num') AS version`)
  ).rows;
  return `/usr/lib/postgresql/${Math.floor(Number(row!.version) / 10_000)}/bin`;
}

async function primarySettings(primary: Client): Promise<Record<string, string>> {
  const { rows } = await primary.query<{ name: string; setting: string }>(
    'SELECT name, current_setting(name) AS setting FROM pg_settings WHERE name = ANY($1)',
    [AS_ON_PRIMARY],
  );
  return Object.fromEntries(rows.map((r) => [r.name, r.setting]));
}

async function withPrimary<T>(serverUrl: string, work: (primary: Client) => Promise<T>): Promise<T> {
  const primary = new Client({ connectionString: serverUrl });
  await primary.connect();
  try {
    return await work(primary);
  } finally {
    await primary.end();
  }
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
