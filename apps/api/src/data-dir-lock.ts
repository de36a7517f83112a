import { readFile, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Embedded PGlite is one process's database: a second process opening the same
 * `DATA_DIR` would corrupt it. The first process writes `DATA_DIR/.lock` with its pid;
 * another refuses to start while that process lives. A lock left by a dead process is
 * taken over.
 */
export async function lockDataDir(dataDir: string): Promise<() => Promise<void>> {
  const path = join(dataDir, '.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      await writeFile(path, String(process.pid), { flag: 'wx' });
      return () => unlink(path).catch(() => undefined);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = Number((await readFile(path, 'utf8').catch(() => '')).trim());
      if (Number.isInteger(holder) && holder > 0 && holder !== process.pid && isAlive(holder)) {
        throw new Error(
          `the embedded database in ${dataDir} is in use by process ${holder}; stop it first ` +
            `(or, while it runs, use the backoffice API)`,
        );
      }
      await unlink(path).catch(() => undefined);
    }
  }
  throw new Error(`could not lock ${dataDir}`);
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
