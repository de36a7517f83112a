import { execFile, spawnSync } from 'node:child_process';
import {
  chownSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { isAlive } from '@pis/persistence/test-support';
import { Client } from 'pg';
import { freePort } from '../../support/api-process';

const BIN = process.env['PIS_TEST_PG_BIN'] ?? '/usr/lib/postgresql/15/bin';
const TMP = '/tmp';
const PREFIX = 'pis-pg-';
const OWNER_FILE = 'owner.pid';

export type StopMode = 'smart' | 'fast' | 'immediate';

/** Why a private cluster cannot be made here (the binaries are missing), or null when it can. */
export function privatePostgresUnavailable(): string | null {
  for (const tool of ['initdb', 'pg_ctl', 'postgres']) {
    if (!existsSync(join(BIN, tool))) return `${join(BIN, tool)} is missing`;
  }
  return null;
}

/**
 * A PostgreSQL cluster of this test's own, that the test may crash and start again (the
 * shared server at 127.0.0.1:5432 must never be stopped). It runs as the `postgres` user
 * from a temporary directory, on a free loopback port and a socket in that directory,
 * trust auth, `fsync=off` (a crashed postgres process loses nothing committed; only an OS
 * crash would) and `synchronous_commit` on.
 *
 *   const pg = await PrivatePostgres.start();    // beforeAll: initdb + start (a few seconds)
 *   await pg.stop('immediate'); await pg.start(); // same port, same data directory
 *   await pg.destroy();                           // afterAll, also after a failure
 *
 * A cluster left behind by a process that died without `destroy` is removed by the next
 * `PrivatePostgres.start` (the directory records its owner's pid), and a process that exits
 * normally without `destroy` removes its own.
 */
export class PrivatePostgres {
  private destroyed = false;
  private readonly onExit = () => this.destroySync();

  private constructor(
    readonly dir: string,
    readonly port: number,
  ) {
    process.on('exit', this.onExit);
  }

  static async start(): Promise<PrivatePostgres> {
    const missing = privatePostgresUnavailable();
    if (missing) throw new Error(`cannot start a private PostgreSQL: ${missing}`);
    removeOrphans();
    const dir = mkdtempSync(join(TMP, PREFIX));
    writeFileSync(join(dir, OWNER_FILE), String(process.pid));
    const pg = new PrivatePostgres(dir, await freePort());
    try {
      chownSync(dir, ...postgresIds());
      await asPostgres(dir, 'initdb', [
        '-D',
        pg.dataDir,
        '-A',
        'trust',
        '-U',
        'postgres',
        '-E',
        'UTF8',
        '--locale=C',
        '--no-sync',
      ]);
      await pg.start();
      return pg;
    } catch (error) {
      await pg.destroy();
      throw error;
    }
  }

  get dataDir(): string {
    return join(this.dir, 'data');
  }

  /** `postgres://postgres@127.0.0.1:<port>/<database>` */
  url(database = 'postgres'): string {
    return `postgres://postgres@127.0.0.1:${this.port}/${database}`;
  }

  /** Starts the cluster (again) on the same port and data directory; resolves once it accepts connections. */
  async start(): Promise<void> {
    const options = [
      `-p ${this.port}`,
      '-c listen_addresses=127.0.0.1',
      `-c unix_socket_directories=${this.dir}`,
      '-c fsync=off',
      '-c synchronous_commit=on',
      '-c shared_buffers=32MB',
      '-c max_connections=100',
    ].join(' ');
    await asPostgres(this.dir, 'pg_ctl', [
      'start',
      '-D',
      this.dataDir,
      '-l',
      join(this.dir, 'server.log'),
      '-w',
      '-t',
      '60',
      '-o',
      options,
    ]);
  }

  /** `immediate` is a crash (no checkpoint, every backend killed); `fast` rolls back and closes sessions. */
  async stop(mode: StopMode): Promise<void> {
    await asPostgres(this.dir, 'pg_ctl', ['stop', '-D', this.dataDir, '-m', mode, '-w', '-t', '60']);
  }

  async createDatabase(name: string): Promise<string> {
    const admin = new Client({ connectionString: this.url() });
    await admin.connect();
    try {
      await admin.query(`CREATE DATABASE ${name}`);
    } finally {
      await admin.end();
    }
    return this.url(name);
  }

  /** The server's log so far (for a failure message). */
  log(): string {
    try {
      return readFileSync(join(this.dir, 'server.log'), 'utf8');
    } catch {
      return '';
    }
  }

  /** Stops the cluster if it runs and removes its directory; safe to call more than once. */
  async destroy(): Promise<void> {
    if (this.destroyed) return;
    await asPostgres(this.dir, 'pg_ctl', ['stop', '-D', this.dataDir, '-m', 'immediate', '-w']).catch(
      () => undefined,
    );
    this.remove();
  }

  private destroySync(): void {
    if (this.destroyed) return;
    stopSync(this.dir);
    this.remove();
  }

  private remove(): void {
    this.destroyed = true;
    process.off('exit', this.onExit);
    rmSync(this.dir, { recursive: true, force: true });
  }
}

function postgresIds(): [number, number] {
  const uid = Number(spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).stdout.trim());
  const gid = Number(spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).stdout.trim());
  if (!Number.isInteger(uid) || !Number.isInteger(gid)) throw new Error('there is no postgres user');
  return [uid, gid];
}

/** Runs a PostgreSQL tool as the postgres user (PostgreSQL refuses to run as root). */
function asPostgres(cwd: string, tool: string, args: string[]): Promise<string> {
  const [file, argv] =
    process.getuid?.() === 0
      ? ['runuser', ['-u', 'postgres', '--', join(BIN, tool), ...args]]
      : [join(BIN, tool), args];
  return new Promise((resolve, reject) => {
    execFile(file, argv, { cwd, timeout: 90_000 }, (error, stdout, stderr) => {
      if (error)
        reject(new Error(`${tool} ${args.join(' ')} failed: ${error.message}\n${stdout}\n${stderr}`));
      else resolve(stdout);
    });
  });
}

function stopSync(dir: string): void {
  const args = ['stop', '-D', join(dir, 'data'), '-m', 'immediate', '-w'];
  const pgCtl = join(BIN, 'pg_ctl');
  if (process.getuid?.() === 0)
    spawnSync('runuser', ['-u', 'postgres', '--', pgCtl, ...args], { cwd: dir, stdio: 'ignore' });
  else spawnSync(pgCtl, args, { cwd: dir, stdio: 'ignore' });
}

/** Clusters whose owning process is gone (killed before its afterAll ran). */
function removeOrphans(): void {
  for (const name of readdirSync(TMP).filter((n) => n.startsWith(PREFIX))) {
    const dir = join(TMP, name);
    let owner: number;
    try {
      owner = Number(readFileSync(join(dir, OWNER_FILE), 'utf8'));
    } catch {
      continue;
    }
    if (!Number.isInteger(owner) || owner <= 0 || isAlive(owner)) continue;
    stopSync(dir);
    rmSync(dir, { recursive: true, force: true });
  }
}
