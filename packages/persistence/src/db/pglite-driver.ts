import { Mutex } from '@electric-sql/pglite';
import { PGliteDriver, getPGliteInstance } from 'typeorm-pglite';
import { pgliteParsers } from './type-parsers';

type BasePool = InstanceType<PGliteDriver['driver']['Pool']>;
type ConnectCallback = (error: unknown, client: BasePool | null, done: () => void) => void;

/** typeorm-pglite keeps one PGlite instance per process; two open embedded databases would share it. */
let openDataDir: string | null = null;

/**
 * The `driver` option of a TypeORM postgres DataSource on embedded PGlite (through
 * typeorm-pglite), persisted in `dataDir`.
 *
 * PGlite is a single session, and typeorm-pglite hands that session to every query runner
 * at once, so two transactions would interleave in it. This pool hands it to one query
 * runner at a time (a FIFO mutex taken in `connect`, freed on release): a pool of size one,
 * which is what PGlite is. The session runs with TimeZone=UTC, set once before first use.
 */
export function pgliteDriver(dataDir: string): { driver: { Pool: new () => unknown }; abandon(): void } {
  if (openDataDir !== null) {
    throw new Error(`an embedded database is already open in this process (${openDataDir})`);
  }
  openDataDir = dataDir;
  const base = new PGliteDriver({ dataDir, parsers: pgliteParsers }).driver.Pool;
  const mutex = new Mutex();
  let prepared = false;

  class ExclusivePGlitePool extends base {
    override async connect(callback: ConnectCallback): Promise<void> {
      const unlock = await mutex.acquire();
      let released = false;
      const done = () => {
        if (!released) unlock();
        released = true;
      };
      try {
        if (!prepared) {
          await (
            await getPGliteInstance()
          ).exec(`SET TimeZone = 'UTC'; SET default_transaction_isolation = 'read committed'`);
          prepared = true;
        }
      } catch (error) {
        done();
        callback(error, null, () => undefined);
        return;
      }
      await super.connect((error, client) => callback(error, client, done));
    }

    override end(callback: (error: unknown) => void): void {
      super.end((error: unknown) => {
        openDataDir = null;
        callback(error);
      });
    }
  }
  // `abandon` frees the slot when the DataSource never opened (its pool's `end` never runs).
  return { driver: { Pool: ExclusivePGlitePool }, abandon: () => (openDataDir = null) };
}
