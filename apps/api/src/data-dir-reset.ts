import { readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { isAlive } from './data-dir-lock';

/** Files only an embedded data directory holds: what makes a directory safe to remove. */
const MARKERS = ['PG_VERSION', 'backoffice-token', 'secrets.key'];

export type ResetOutcome =
  | { kind: 'removed'; dataDir: string }
  | { kind: 'absent'; dataDir: string }
  | { kind: 'in-use'; dataDir: string; pid: number }
  | { kind: 'not-a-data-dir'; dataDir: string };

/**
 * `pnpm reset`: removes the embedded database (and its token and secrets key) so that the
 * next `pnpm start` begins afresh with a new demo location and key. Refused while a process
 * holds the directory's lock, and for a directory that is not an embedded data directory.
 */
export async function resetDataDir(dataDir: string): Promise<ResetOutcome> {
  let entries: string[];
  try {
    entries = await readdir(dataDir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'absent', dataDir };
    throw error;
  }
  const holder = Number((await readFile(join(dataDir, '.lock'), 'utf8').catch(() => '')).trim());
  if (Number.isInteger(holder) && holder > 0 && isAlive(holder))
    return { kind: 'in-use', dataDir, pid: holder };
  if (entries.length > 0 && !MARKERS.some((marker) => entries.includes(marker))) {
    return { kind: 'not-a-data-dir', dataDir };
  }
  await rm(dataDir, { recursive: true, force: true });
  return { kind: 'removed', dataDir };
}
