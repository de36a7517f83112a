import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runReset } from '../src/reset';

const ROOT = join(__dirname, '../../..');

/** `pnpm reset`'s entry point as a process, in DATA_DIR `dataDir`. */
const resetProcess = (dataDir: string) =>
  spawnSync(process.execPath, ['--import', 'tsx', 'tools/cli/src/reset-main.ts'], {
    cwd: ROOT,
    env: { PATH: process.env['PATH'] ?? '', DATA_DIR: dataDir },
    encoding: 'utf8',
  });

describe('pnpm reset', () => {
  const root = mkdtempSync(join(tmpdir(), 'pis-reset-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  /** A directory shaped like an embedded data dir (what the first start leaves). */
  function dataDir(name: string): string {
    const dir = join(root, name);
    mkdirSync(dir);
    for (const file of ['PG_VERSION', 'backoffice-token', 'secrets.key', 'demo-location']) {
      writeFileSync(join(dir, file), 'x\n');
    }
    return dir;
  }

  it('When no process holds the data dir, then it is removed and the next start begins afresh', () => {
    const dir = dataDir('idle');
    writeFileSync(join(dir, '.lock'), '999999999'); // left by a process that is gone

    const run = resetProcess(dir);

    expect({ status: run.status, stdout: run.stdout }).toEqual({
      status: 0,
      stdout: expect.stringContaining(`Removed ${dir}.`),
    });
    // The token went with the directory: the message says a new one comes, not only a new key.
    expect(run.stdout).toContain('a new BACKOFFICE_TOKEN');
    expect(existsSync(dir)).toBe(false);
  });

  it('When a live process holds the data dir, then nothing is removed and the process is named', async () => {
    const dir = dataDir('busy');
    const holder = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)']);
    try {
      writeFileSync(join(dir, '.lock'), String(holder.pid));

      const outcome = await runReset({ DATA_DIR: dir });

      expect(outcome).toEqual({
        code: 1,
        message: expect.stringContaining(`in use by process ${holder.pid}`),
      });
      expect(existsSync(join(dir, 'PG_VERSION'))).toBe(true);
    } finally {
      holder.kill('SIGKILL');
    }
  });

  it('When DATA_DIR is not an embedded data dir, or DATABASE_URL is set, then nothing is removed', async () => {
    const other = join(root, 'documents');
    mkdirSync(other);
    writeFileSync(join(other, 'thesis.txt'), 'keep me');

    expect(await runReset({ DATA_DIR: other })).toEqual({
      code: 1,
      message: expect.stringContaining('does not look like an embedded data directory'),
    });
    expect(
      await runReset({ DATA_DIR: dataDir('db-url'), DATABASE_URL: 'postgres://x@127.0.0.1/db' }),
    ).toEqual({
      code: 2,
      message: expect.stringContaining('DATABASE_URL is set'),
    });
    expect(existsSync(join(other, 'thesis.txt'))).toBe(true);
    expect(existsSync(join(root, 'db-url', 'PG_VERSION'))).toBe(true);
  });

  it('When there is no data dir, then there is nothing to reset and it exits 0', async () => {
    expect(await runReset({ DATA_DIR: join(root, 'never-started') })).toEqual({
      code: 0,
      message: expect.stringContaining('Nothing to reset'),
    });
  });
});
