import { execFile, spawnSync } from 'node:child_process';
import { chownSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isAlive } from './test-support';

/** Debian's PostgreSQL programs (`PIS_TEST_PG_BIN` overrides). */
export const PG_BIN = process.env['PIS_TEST_PG_BIN'] ?? '/usr/lib/postgresql/15/bin';
const TMP = '/tmp';
const OWNER_FILE = 'owner.pid';

/**
 * A temporary directory holding a PostgreSQL server of this test process's own (`data/`, its
 * log `server.log`), for the test helpers that start one (a private cluster, a replica). The
 * programs run as user `postgres` when the tests run as root (the server refuses root). The
 * directory records its owner's pid: a server left behind by a process that died is stopped
 * and removed by the next `claim` of the same prefix, and one whose process exits normally
 * without `remove` is stopped and removed at exit.
 */
export class ServerDirectory {
  private removed = false;
  private readonly onExit = () => this.removeSync();

  private constructor(
    readonly dir: string,
    readonly bin: string,
  ) {
    process.on('exit', this.onExit);
  }

  static claim(prefix: string, bin = PG_BIN): ServerDirectory {
    removeOrphans(prefix, bin);
    const dir = mkdtempSync(join(TMP, prefix));
    writeFileSync(join(dir, OWNER_FILE), String(process.pid));
    const claimed = new ServerDirectory(dir, bin);
    try {
      chownSync(dir, ...postgresIds());
    } catch (error) {
      claimed.removeSync();
      throw error;
    }
    return claimed;
  }

  get dataDir(): string {
    return join(this.dir, 'data');
  }

  /** Runs a PostgreSQL program (`initdb`, `pg_ctl`, `pg_basebackup`...) as the server's user, in this directory. */
  run(tool: string, args: string[]): Promise<string> {
    const [file, argv] =
      process.getuid?.() === 0
        ? ['runuser', ['-u', 'postgres', '--', join(this.bin, tool), ...args]]
        : [join(this.bin, tool), args];
    return new Promise((resolve, reject) => {
      execFile(file, argv, { cwd: this.dir, timeout: 180_000 }, (error, stdout, stderr) => {
        if (error)
          reject(new Error(`${tool} ${args.join(' ')} failed: ${error.message}\n${stdout}\n${stderr}`));
        else resolve(stdout);
      });
    });
  }

  /** Writes a file of the data directory, owned by the server's user. */
  writeDataFile(name: string, text: string): void {
    const path = join(this.dataDir, name);
    writeFileSync(path, text);
    chownSync(path, ...postgresIds());
  }

  /** The server's log so far (for a failure message). */
  log(): string {
    try {
      return readFileSync(join(this.dir, 'server.log'), 'utf8');
    } catch {
      return '';
    }
  }

  /** Stops the server if it runs (immediately) and removes the directory; safe to call more than once. */
  async remove(): Promise<void> {
    if (this.removed) return;
    await this.run('pg_ctl', ['stop', '-D', this.dataDir, '-m', 'immediate', '-w']).catch(() => undefined);
    this.forget();
  }

  private removeSync(): void {
    if (this.removed) return;
    stopSync(this.dir, this.bin);
    this.forget();
  }

  private forget(): void {
    this.removed = true;
    process.off('exit', this.onExit);
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** The uid and gid of the `postgres` user when the tests run as root; the current ones otherwise. */
function postgresIds(): [number, number] {
  if (process.getuid?.() !== 0) return [process.getuid?.() ?? 0, process.getgid?.() ?? 0];
  const id = (flag: string) =>
    Number(spawnSync('id', [flag, 'postgres'], { encoding: 'utf8' }).stdout.trim());
  const [uid, gid] = [id('-u'), id('-g')];
  if (!Number.isInteger(uid) || !Number.isInteger(gid)) throw new Error('there is no postgres user');
  return [uid, gid];
}

function stopSync(dir: string, bin: string): void {
  const args = ['stop', '-D', join(dir, 'data'), '-m', 'immediate', '-w'];
  const pgCtl = join(bin, 'pg_ctl');
  if (process.getuid?.() === 0) {
    spawnSync('runuser', ['-u', 'postgres', '--', pgCtl, ...args], { cwd: dir, stdio: 'ignore' });
  } else spawnSync(pgCtl, args, { cwd: dir, stdio: 'ignore' });
}

/** Servers whose owning process is gone (killed before its afterAll ran). */
function removeOrphans(prefix: string, bin: string): void {
  for (const name of readdirSync(TMP).filter((n) => n.startsWith(prefix))) {
    const dir = join(TMP, name);
    let owner: number;
    try {
      owner = Number(readFileSync(join(dir, OWNER_FILE), 'utf8'));
    } catch {
      continue;
    }
    if (!Number.isInteger(owner) || owner <= 0 || isAlive(owner)) continue;
    stopSync(dir, bin);
    rmSync(dir, { recursive: true, force: true });
  }
}
