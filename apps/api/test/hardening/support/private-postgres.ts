import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { PG_BIN, ServerDirectory } from '@pis/persistence/test-support';
import { Client } from 'pg';
import { freePort } from '../../support/api-process';

export type StopMode = 'smart' | 'fast' | 'immediate';

/** Why a private cluster cannot be made here (the binaries are missing), or null when it can. */
export function privatePostgresUnavailable(): string | null {
  for (const tool of ['initdb', 'pg_ctl', 'postgres']) {
    if (!existsSync(join(PG_BIN, tool))) return `${join(PG_BIN, tool)} is missing`;
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
  private constructor(
    private readonly home: ServerDirectory,
    readonly port: number,
  ) {}

  static async start(): Promise<PrivatePostgres> {
    const missing = privatePostgresUnavailable();
    if (missing) throw new Error(`cannot start a private PostgreSQL: ${missing}`);
    const pg = new PrivatePostgres(ServerDirectory.claim('pis-pg-'), await freePort());
    try {
      await pg.home.run('initdb', [
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

  private get dir(): string {
    return this.home.dir;
  }

  get dataDir(): string {
    return this.home.dataDir;
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
    await this.home.run('pg_ctl', [
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
    await this.home.run('pg_ctl', ['stop', '-D', this.dataDir, '-m', mode, '-w', '-t', '60']);
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
    return this.home.log();
  }

  /** Stops the cluster if it runs and removes its directory; safe to call more than once. */
  async destroy(): Promise<void> {
    await this.home.remove();
  }
}
