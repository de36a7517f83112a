import { AsyncLocalStorage } from 'node:async_hooks';
import type { DataSource, QueryRunner } from 'typeorm';
import { NotificationListener } from './notification-listener';
import { ReplicaReads, type ReplicaSettings, type ReplicaStatus } from './replica-reads';
import { Sql, type ReadSql } from './sql';
import { poolOf } from './typeorm-internals';
import { orUnavailable } from './unavailable';
import { walBytes } from './write-positions';

export interface DatabaseOptions {
  /**
   * A direct session connection for LISTEN (`DATABASE_DIRECT_URL`, else `DATABASE_URL`);
   * null where there is no server to listen to (embedded PGlite): notifications then stay
   * within the process.
   */
  listenUrl: string | null;
  /**
   * A direct session connection for the migrations and their advisory lock when the pools
   * go through a transaction pooler (`DATABASE_DIRECT_URL`); null or absent: the write pool.
   */
  migrationUrl?: string | null;
  /** `application_name` of the listening connection. */
  applicationName?: string;
  /**
   * Named prepared statements for the hot statements (parsed and planned once per
   * connection). Off behind a transaction-pooling proxy, where a connection is not ours
   * from one statement to the next.
   */
  preparedStatements?: boolean;
  /** Told when the listening connection was lost (it reconnects by itself). */
  onListenerLost?: (error: Error | undefined) => void;
  /** A streaming replica that may serve the reads of one location (`DATABASE_READ_URL`). */
  replica?: ReplicaSettings;
}

export type Pool = 'write' | 'read';

/**
 * A read of one location's data that the read replica may serve, when there is one and it
 * has replayed that location's last write (decision 0195); the primary's read pool otherwise.
 */
export interface LocationRead {
  location: string;
}

/** One pool's connections: open, idle among them, callers waiting for one, and the most it opens. */
export interface PoolUsage {
  pool: Pool | 'replica';
  total: number;
  idle: number;
  waiting: number;
  max: number;
}

type LocalListener = (payload: string) => void;

/**
 * The one way this package reaches the database besides TypeORM's own API: statements,
 * prepared statements, transactions, read snapshots, LISTEN/NOTIFY. Every failure to reach
 * the database leaves as `ServiceUnavailableError`.
 *
 * On PostgreSQL the DataSource holds two pools (see `createDataSource`): `write` for units
 * of work and single writes, `read` for the read side, which never runs in a unit of work's
 * transaction: it sees committed state only, and never waits for a connection of the pool
 * that the transactions hold (once every one is held by a transaction that reads, that
 * would deadlock). Embedded PGlite is one session: a read made inside a unit of work runs
 * in it (the only way it can run at all) and so sees its writes. With a read replica
 * (`DatabaseOptions.replica`), reads of one location (`LocationRead`) may run there instead,
 * under the routing rule of `ReplicaReads`.
 */
export class Database {
  private readonly ambient = new AsyncLocalStorage<QueryRunner>();
  private readonly listener: NotificationListener | null;
  /** Subscribers in this process, for databases without a listening connection. */
  private readonly local = new Map<string, Set<LocalListener>>();
  private readonly prepare: boolean;
  private readonly replica: ReplicaReads | null;

  constructor(
    readonly dataSource: DataSource,
    private readonly options: DatabaseOptions,
  ) {
    this.prepare = options.preparedStatements ?? true;
    this.listener =
      options.listenUrl === null
        ? null
        : new NotificationListener({
            connectionString: options.listenUrl,
            applicationName: options.applicationName ?? 'pis-listener',
            onConnectionLost: options.onListenerLost,
          });
    this.replica =
      options.replica === undefined
        ? null
        : new ReplicaReads(options.replica, () => this.walInsertPosition(), this.prepare);
  }

  /** Where `runMigrations` applies migrations: a direct session connection, or null for the write pool. */
  get migrationUrl(): string | null {
    return this.options.migrationUrl ?? null;
  }

  /**
   * The `pg` pools' connections right now (for the pool gauges); empty on PGlite, whose one
   * session is not a pool.
   */
  poolUsage(): PoolUsage[] {
    const replica = this.replica === null ? [] : [{ pool: 'replica' as const, ...this.replica.poolUsage() }];
    const primary = (['write', 'read'] as const).flatMap((pool) => {
      const target = poolOf(this.dataSource, pool === 'write' ? 'master' : 'slave');
      if (target === null) return [];
      return [
        {
          pool,
          total: target.totalCount,
          idle: target.idleCount,
          waiting: target.waitingCount,
          max: target.options.max,
        },
      ];
    });
    return [...primary, ...replica];
  }

  /** The read replica's state and the reads routed so far; null without one. */
  replicaStatus(): ReplicaStatus | null {
    return this.replica?.status() ?? null;
  }

  /**
   * Runs `work` (the rest of a request) on behalf of `location`: a write it commits keeps that
   * location's reads on the primary until the replica has it (`noteWrite`). Just `work()`
   * without a replica.
   */
  onBehalfOf<T>(location: string, work: () => T): T {
    return this.replica === null ? work() : this.replica.within(location, work);
  }

  /**
   * Called after a commit that changed something, on behalf of a location (`onBehalfOf`): keeps
   * the primary's WAL position for that location. Nothing without a replica, or outside
   * `onBehalfOf`; it never fails the write it follows.
   */
  async noteWrite(): Promise<void> {
    if (this.replica !== null) await this.replica.noteWrite();
  }

  /** Whether read-side statements run on a pool of their own (PostgreSQL) or in the caller's unit of work (PGlite). */
  get separateReads(): boolean {
    return this.dataSource.driver.isReplicated;
  }

  /** One statement, its own transaction, on the write pool. */
  query<T>(text: string, params: unknown[] = []): Promise<T[]> {
    return this.withRunner('master', (sql) => sql.rows<T>(text, params));
  }

  /**
   * One statement as a named prepared statement straight on a pool, skipping the
   * query-runner machinery: for statements on a measured hot path. A plain statement where
   * prepared statements are off, or on PGlite (serialised with its single session).
   */
  async prepared<T>(
    name: string,
    text: string,
    values: unknown[],
    pool: Pool | LocationRead = 'write',
  ): Promise<T[]> {
    if (typeof pool === 'object') {
      const onPrimary = () => this.prepared<T>(name, text, values, 'read');
      return this.replica === null
        ? onPrimary()
        : this.replica.rows<T>(pool.location, { name, text, values }, onPrimary);
    }
    const target = poolOf(this.dataSource, pool === 'write' ? 'master' : 'slave');
    if (target === null) {
      return pool === 'read' ? this.read((sql) => sql.rows<T>(text, values)) : this.query<T>(text, values);
    }
    const config = this.prepare ? { name, text, values } : { text, values };
    return orUnavailable(async () => (await target.query(config)).rows as T[]);
  }

  /**
   * Several statements in one READ COMMITTED transaction on the write pool: committed when
   * `work` resolves (and `commitIf` accepts its value), rolled back otherwise, the connection
   * released always. Reads made by `work` through `read`/`snapshot` run in this transaction
   * where reads share the session (PGlite).
   */
  transaction<T>(work: (sql: Sql) => Promise<T>, commitIf: (value: T) => boolean = () => true): Promise<T> {
    return orUnavailable(async () => {
      const runner = this.dataSource.createQueryRunner('master');
      try {
        // READ COMMITTED is every session's default: a bare START TRANSACTION saves the
        // round trip of a SET TRANSACTION.
        await runner.startTransaction();
        const value = await this.ambient.run(runner, () => work(new Sql(runner)));
        if (commitIf(value)) await runner.commitTransaction();
        else await runner.rollbackTransaction();
        return value;
      } catch (error) {
        if (runner.isTransactionActive) await runner.rollbackTransaction().catch(() => undefined);
        throw error;
      } finally {
        await runner.release();
      }
    });
  }

  /** Read-side statements that need no common snapshot (of one location: see `LocationRead`). */
  read<T>(work: (sql: ReadSql) => Promise<T>, of?: LocationRead): Promise<T> {
    return this.routed(work, false, of);
  }

  /** Read-side statements that must agree with each other: one REPEATABLE READ snapshot. */
  snapshot<T>(work: (sql: ReadSql) => Promise<T>, of?: LocationRead): Promise<T> {
    return this.routed(work, true, of);
  }

  /**
   * Calls `onMessage` with the payload of every NOTIFY on `channel` (from any process on
   * PostgreSQL, from this one on PGlite), and `onConnected` whenever listening (re)starts,
   * after which signals sent meanwhile may have been missed. Answers an unsubscribe.
   */
  async listen(
    channel: string,
    onMessage: (payload: string) => void,
    onConnected?: () => void,
  ): Promise<() => Promise<void>> {
    if (this.listener !== null) return this.listener.subscribe(channel, { onMessage, onConnected });
    const handlers = this.local.get(channel) ?? new Set<LocalListener>();
    handlers.add(onMessage);
    this.local.set(channel, handlers);
    onConnected?.();
    return async () => void handlers.delete(onMessage);
  }

  /** Sends `payload` on `channel` to every listener (including this process's). */
  async notify(channel: string, payload: string): Promise<void> {
    if (this.listener !== null) {
      await this.query('SELECT pg_notify($1, $2)', [channel, payload]);
      return;
    }
    for (const handler of this.local.get(channel) ?? []) handler(payload);
  }

  /** Closes the listening connection and the pools; closing again (or after the DataSource was destroyed) is harmless. */
  async close(): Promise<void> {
    await this.replica?.stop();
    await this.listener?.stop();
    if (this.dataSource.isInitialized) await this.dataSource.destroy();
  }

  private routed<T>(work: (sql: ReadSql) => Promise<T>, consistent: boolean, of?: LocationRead): Promise<T> {
    const onPrimary = () => this.onReader(work, consistent);
    if (of === undefined || this.replica === null) return onPrimary();
    return this.replica.run(of.location, consistent, work, onPrimary);
  }

  /** `pg_current_wal_insert_lsn()`: at or past every commit acknowledged before it was asked for. */
  private async walInsertPosition(): Promise<number> {
    const [row] = await this.prepared<{ lsn: string }>(
      'pis_wal_insert_lsn',
      'SELECT pg_current_wal_insert_lsn()::text AS lsn',
      [],
      'read',
    );
    return walBytes(row!.lsn);
  }

  private onReader<T>(work: (sql: ReadSql) => Promise<T>, consistent: boolean): Promise<T> {
    const current = this.separateReads ? undefined : this.ambient.getStore();
    if (current) return work(new Sql(current));
    return this.withRunner(this.separateReads ? 'slave' : 'master', async (sql, runner) => {
      if (!consistent) return work(sql);
      await runner.startTransaction('REPEATABLE READ');
      const result = await work(sql);
      await runner.commitTransaction();
      return result;
    });
  }

  private withRunner<T>(
    mode: 'master' | 'slave',
    work: (sql: Sql, runner: QueryRunner) => Promise<T>,
  ): Promise<T> {
    return orUnavailable(async () => {
      const runner = this.dataSource.createQueryRunner(mode);
      try {
        return await work(new Sql(runner), runner);
      } catch (error) {
        if (runner.isTransactionActive) await runner.rollbackTransaction().catch(() => undefined);
        throw error;
      } finally {
        await runner.release();
      }
    });
  }
}
