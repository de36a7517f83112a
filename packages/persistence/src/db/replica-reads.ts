import { AsyncLocalStorage } from 'node:async_hooks';
import { Pool, type QueryConfig } from 'pg';
import { ClientSql, type ReadSql } from './sql';
import { pgTypeParsers } from './type-parsers';
import { isConnectionFailure } from './unavailable';
import { walBytes, type WritePositions } from './write-positions';

/*
 * Reads of one location on a streaming replica, with read-your-writes (decision 0195): a read
 * goes to the replica only when the replica is up, less than `maxLagMs` behind, and has
 * replayed the last write made on behalf of that location; otherwise, or when the replica
 * fails it, the read runs on the primary. What the replica answers is a committed state the
 * primary had, at least as new as that write.
 */

export interface ReplicaSettings {
  /** `DATABASE_READ_URL`: a streaming replica of the primary (same database name). */
  url: string;
  /** `DATABASE_READ_MAX_LAG_MS`: a replica further behind than this is skipped. */
  maxLagMs: number;
  /** Where each location's last write position is kept. */
  positions: WritePositions;
  /** Connections of the replica's pool (default 10). */
  poolSize?: number;
  applicationName?: string;
  /** Told when the replica starts or stops serving reads, and why. */
  onChange?: (state: ReplicaState, detail: { lagMs: number | null; error?: unknown }) => void;
  /** Told when a write's position could not be read or kept (the write itself committed). */
  onPositionLost?: (error: unknown) => void;
}

export type ReplicaState = 'serving' | 'lagging' | 'down';

/** Why a read went where it went: `caught_up` is the replica's, every other reason the primary's. */
export type RouteReason = 'caught_up' | 'recent_write' | 'lagging' | 'down' | 'failed' | 'positions_unknown';

export interface ReplicaStatus {
  state: ReplicaState;
  /** How far behind the primary the replica may be, in seconds (an upper bound); null while it is down. */
  lagSeconds: number | null;
  /** Reads routed since start, by where they ran and why. */
  reads: { source: 'replica' | 'primary'; reason: RouteReason; count: number }[];
}

/** A primary WAL position and when it was asked for (performance.now()). */
interface Sample {
  at: number;
  position: number;
}

/** Primary samples kept while the replica is behind them all (about 40 minutes at 250 ms). */
const MAX_SAMPLES = 10_000;

export class ReplicaReads {
  private readonly pool: Pool;
  private readonly behalf = new AsyncLocalStorage<string>();
  private readonly samples: Sample[] = [];
  /** The replica's replay position at its last answer; null while it does not answer. */
  private replayed: number | null = null;
  /** null until the first poll has answered. */
  private state: ReplicaState | null = null;
  private readonly counts = new Map<string, number>();
  private timer: NodeJS.Timeout | null = null;
  private polling: Promise<void> | null = null;
  /** The replica's replay position being asked for by a read, shared by the reads meanwhile. */
  private refreshing: Promise<number | null> | null = null;
  /** The primary's position, to be asked for once the writes that committed this turn have joined. */
  private asking: Promise<number> | null = null;
  private stopped = false;
  private stopping: Promise<void> | null = null;
  /** How often the primary's and the replica's positions are read: a quarter of the lag allowed, 10-250 ms. */
  readonly pollMs: number;

  constructor(
    private readonly settings: ReplicaSettings,
    /** The primary's `pg_current_wal_insert_lsn()` in bytes. */
    private readonly primaryPosition: () => Promise<number>,
    private readonly prepare: boolean,
  ) {
    this.pollMs = Math.min(250, Math.max(10, Math.floor(settings.maxLagMs / 4)));
    this.pool = new Pool({
      connectionString: settings.url,
      max: settings.poolSize ?? 10,
      application_name: settings.applicationName ?? 'pis-replica',
      types: pgTypeParsers,
      // A replica that does not even accept a connection this soon is as good as down.
      connectionTimeoutMillis: Math.min(5_000, Math.max(1_000, settings.maxLagMs)),
    });
    // An idle connection lost with the replica: the next poll or read notices and says so.
    this.pool.on('error', () => undefined);
    this.schedule(0);
  }

  /** Runs `work` on behalf of `location`: writes it commits are noted under it (`noteWrite`). */
  within<T>(location: string, work: () => T): T {
    return this.behalf.run(location, work);
  }

  /**
   * After a commit on behalf of a location: keeps the primary's WAL position, which is now at
   * or past the commit, as the position the replica must reach before that location's reads
   * go there. Never fails the write: a position that cannot be kept is reported.
   */
  async noteWrite(): Promise<void> {
    const location = this.behalf.getStore();
    if (location === undefined) return;
    try {
      await this.settings.positions.record(location, await this.positionAfterCommits());
    } catch (error) {
      this.settings.onPositionLost?.(error);
    }
  }

  /**
   * The primary's WAL position, asked for after the commits of every caller: the writes that
   * finish in one turn of the event loop share one question, sent on the next.
   */
  private positionAfterCommits(): Promise<number> {
    this.asking ??= new Promise<void>((resolve) => setImmediate(resolve)).then(() => {
      this.asking = null;
      return this.primaryPosition();
    });
    return this.asking;
  }

  /** `work` in one session of the replica (in a REPEATABLE READ snapshot when `consistent`), else `onPrimary`. */
  run<T>(
    location: string,
    consistent: boolean,
    work: (sql: ReadSql) => Promise<T>,
    onPrimary: () => Promise<T>,
  ): Promise<T> {
    return this.routed(location, onPrimary, async () => {
      const client = await this.pool.connect();
      try {
        if (!consistent) {
          const value = await work(new ClientSql(client));
          client.release();
          return value;
        }
        await client.query('START TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY');
        const value = await work(new ClientSql(client));
        await client.query('COMMIT');
        client.release();
        return value;
      } catch (error) {
        // Whatever state it is in (a transaction left open, a lost socket): not reused.
        client.release(true);
        throw error;
      }
    });
  }

  /** One statement (prepared where prepared statements are on) on the replica, else `onPrimary`. */
  rows<T>(location: string, statement: QueryConfig, onPrimary: () => Promise<T[]>): Promise<T[]> {
    const config = this.prepare ? statement : { text: statement.text, values: statement.values };
    return this.routed(location, onPrimary, async () => (await this.pool.query(config)).rows as T[]);
  }

  status(): ReplicaStatus {
    const down = this.replayed === null || this.state === 'down' || this.state === null;
    const lagMs = down ? null : this.lagMs(performance.now());
    return {
      state: this.state ?? 'down',
      lagSeconds: lagMs === null ? null : Math.round(lagMs) / 1000,
      reads: [...this.counts].map(([key, count]) => {
        const [source, reason] = key.split(':') as ['replica' | 'primary', RouteReason];
        return { source, reason, count };
      }),
    };
  }

  /** The replica pool's connections (for the pool gauges). */
  poolUsage(): { total: number; idle: number; waiting: number; max: number } {
    const { totalCount, idleCount, waitingCount, options } = this.pool;
    return { total: totalCount, idle: idleCount, waiting: waitingCount, max: options.max ?? 10 };
  }

  /** Stops polling and closes the pool and the positions; stopping again waits for the first stop. */
  stop(): Promise<void> {
    this.stopping ??= (async () => {
      this.stopped = true;
      if (this.timer !== null) clearTimeout(this.timer);
      await this.polling;
      await this.pool.end();
      await this.settings.positions.close?.();
    })();
    return this.stopping;
  }

  private async routed<T>(
    location: string,
    onPrimary: () => Promise<T>,
    onReplica: () => Promise<T>,
  ): Promise<T> {
    const reason = await this.route(location);
    if (reason !== 'caught_up') {
      this.count('primary', reason);
      return onPrimary();
    }
    let value: T;
    try {
      value = await onReplica();
    } catch (error) {
      // Down, restarting, or a statement cancelled by a recovery conflict: the primary answers.
      this.count('primary', 'failed');
      if (isConnectionFailure(error)) this.enter('down', null, error);
      return onPrimary();
    }
    this.count('replica', 'caught_up');
    return value;
  }

  private async route(location: string): Promise<RouteReason> {
    const replayed = this.replayed;
    if (replayed === null || this.state === 'down' || this.state === null) return 'down';
    if (this.lagMs(performance.now()) > this.settings.maxLagMs) return 'lagging';
    let written: number;
    try {
      written = await this.settings.positions.latest(location);
    } catch {
      return 'positions_unknown';
    }
    if (written <= replayed) return 'caught_up';
    // Behind the last poll's position; the replica is usually well past it by now.
    const fresh = await this.refreshReplayed();
    return fresh !== null && written <= fresh ? 'caught_up' : 'recent_write';
  }

  /** The replica's replay position now (null when it does not answer); one question at a time. */
  private refreshReplayed(): Promise<number | null> {
    this.refreshing ??= this.replayPosition()
      .then(
        (position) => {
          if (this.replayed !== null && position > this.replayed) this.replayed = position;
          return position;
        },
        () => null,
      )
      .finally(() => {
        this.refreshing = null;
      });
    return this.refreshing;
  }

  /**
   * An upper bound of the replica's lag: the age of the newest primary sample it has replayed.
   * That sample was asked for after every commit acknowledged before it, so all of them are on
   * the replica; whatever is newer may not be. It only grows while the polls stall.
   */
  private lagMs(now: number): number {
    const replayed = this.replayed ?? -1;
    for (let i = this.samples.length - 1; i >= 0; i--) {
      const sample = this.samples[i]!;
      if (sample.position <= replayed) return now - sample.at;
    }
    return this.samples.length === 0 ? Infinity : now - this.samples[0]!.at;
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.polling = this.poll().finally(() => {
        this.polling = null;
        this.schedule(this.pollMs);
      });
    }, delayMs);
    this.timer.unref();
  }

  private async poll(): Promise<void> {
    const at = performance.now();
    const [primary, replica] = await Promise.allSettled([this.primaryPosition(), this.replayPosition()]);
    if (primary.status === 'fulfilled') this.addSample({ at, position: primary.value });
    if (replica.status === 'rejected') {
      this.replayed = null;
      this.enter('down', null, replica.reason);
      return;
    }
    this.replayed = replica.value;
    while (this.samples.length > 1 && this.samples[1]!.position <= replica.value) this.samples.shift();
    const lagMs = this.lagMs(performance.now());
    this.enter(lagMs > this.settings.maxLagMs ? 'lagging' : 'serving', lagMs);
  }

  private async replayPosition(): Promise<number> {
    const { rows } = await this.pool.query<{ standby: boolean; replayed: string | null }>(
      'SELECT pg_is_in_recovery() AS standby, pg_last_wal_replay_lsn()::text AS replayed',
    );
    const row = rows[0];
    if (row?.standby !== true || row.replayed === null) {
      throw new Error('DATABASE_READ_URL is not a server in recovery (a streaming replica); it is not read');
    }
    return walBytes(row.replayed);
  }

  private addSample(sample: Sample): void {
    const last = this.samples[this.samples.length - 1];
    // The same position asked for later: only the later time matters.
    if (last !== undefined && last.position === sample.position) last.at = sample.at;
    else this.samples.push(sample);
    if (this.samples.length > MAX_SAMPLES) this.samples.shift();
  }

  private enter(state: ReplicaState, lagMs: number | null, error?: unknown): void {
    if (state === this.state) return;
    this.state = state;
    this.settings.onChange?.(state, { lagMs, error });
  }

  private count(source: 'replica' | 'primary', reason: RouteReason): void {
    const key = `${source}:${reason}`;
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
  }
}
