import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { freePort } from './api-process';

const SERVER_URL = new URL(process.env['PIS_TEST_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test');

/**
 * A real PgBouncer (Debian's `pgbouncer` package) of this test's own, on a free port, in
 * front of the test PostgreSQL server: transaction pooling and the stock
 * `ignore_startup_parameters`, as a production deployment would run it. Its configuration
 * lives in a temporary directory; it trusts user `postgres`, as the test server does.
 */
export class PgBouncer {
  private output = '';
  private readonly exited: Promise<void>;

  private constructor(
    private readonly child: ChildProcess,
    readonly port: number,
    private readonly dir: string,
  ) {
    const collect = (chunk: Buffer) => {
      this.output += chunk.toString('utf8');
    };
    child.stdout!.on('data', collect);
    child.stderr!.on('data', collect);
    this.exited = new Promise((resolve) => child.on('exit', () => resolve()));
  }

  static async start(): Promise<PgBouncer> {
    const binary = spawnSync('sh', ['-c', 'command -v pgbouncer || ls /usr/sbin/pgbouncer'], {
      encoding: 'utf8',
    });
    const path = binary.stdout.trim().split('\n')[0];
    if (binary.status !== 0 || !path) {
      throw new Error(
        'pgbouncer is not installed: apt-get install -y pgbouncer (the set-up of pnpm test does it)',
      );
    }
    const port = await freePort();
    const dir = mkdtempSync(join(tmpdir(), 'pis-pgbouncer-'));
    // PgBouncer refuses to run as root; it then runs as `nobody`, which must read the files.
    chmodSync(dir, 0o755);
    const file = (name: string, text: string) => {
      writeFileSync(join(dir, name), text, { mode: 0o644 });
      return join(dir, name);
    };
    const users = file('userlist.txt', `"${SERVER_URL.username || 'postgres'}" ""\n`);
    const config = file(
      'pgbouncer.ini',
      [
        '[databases]',
        `* = host=${SERVER_URL.hostname} port=${SERVER_URL.port || 5432}`,
        '[pgbouncer]',
        'listen_addr = 127.0.0.1',
        `listen_port = ${port}`,
        'unix_socket_dir =',
        'auth_type = trust',
        `auth_file = ${users}`,
        `admin_users = ${SERVER_URL.username || 'postgres'}`,
        'pool_mode = transaction',
        'ignore_startup_parameters = extra_float_digits',
        'max_client_conn = 500',
        'default_pool_size = 20',
        '',
      ].join('\n'),
    );
    const asRoot = process.getuid?.() === 0;
    const child = spawn(path, [...(asRoot ? ['-u', 'nobody'] : []), config], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const bouncer = new PgBouncer(child, port, dir);
    const deadline = Date.now() + 10_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`pgbouncer exited at start:\n${bouncer.output}`);
      try {
        await bouncer.admin('SHOW VERSION');
        return bouncer;
      } catch (error) {
        if (Date.now() > deadline) {
          await bouncer.stop();
          throw new Error(`pgbouncer never answered: ${String(error)}\n${bouncer.output}`);
        }
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  }

  /** `databaseUrl` with its host and port replaced by this PgBouncer's. */
  pooled(databaseUrl: string): string {
    const url = new URL(databaseUrl);
    url.hostname = '127.0.0.1';
    url.port = String(this.port);
    return url.toString();
  }

  /** A statement of PgBouncer's admin console (`SHOW STATS`, ...). */
  async admin<T>(statement: string): Promise<T[]> {
    const client = new Client({
      host: '127.0.0.1',
      port: this.port,
      user: SERVER_URL.username || 'postgres',
      database: 'pgbouncer',
    });
    client.on('error', () => undefined);
    await client.connect();
    try {
      // Without parameters `pg` uses the simple query protocol, the only one the console speaks.
      return (await client.query(statement)).rows as T[];
    } finally {
      await client.end();
    }
  }

  get log(): string {
    return this.output;
  }

  async stop(): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGTERM');
    await this.exited;
    rmSync(this.dir, { recursive: true, force: true });
  }
}
