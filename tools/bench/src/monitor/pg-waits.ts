import { Client } from 'pg';
import { round } from '../report/stats';
import { CLOCK_TICKS, readStat } from './proc';

export interface WaitProfile {
  /** Mean number of backends of the benchmark database in a statement or a transaction. */
  meanActive: number;
  /** Share of active-backend samples per wait event (`CPU` = running, no wait event), largest first. */
  events: { event: string; share: number }[];
  samples: number;
  /** Checkpoints that started during the run (timed or requested), server-wide. */
  checkpoints: number;
  /** Share of samples in which an autovacuum worker ran (any database of the server). */
  autovacuumShare: number;
  /**
   * CPU of the benchmark database's own backends (from /proc, by the pids in
   * `pg_stat_activity`), in cores: PostgreSQL's work for this run without the other
   * databases of a shared server. Background processes (WAL writer, checkpointer) are not in it.
   */
  databaseCores: number;
}

const CHECKPOINTS = `SELECT checkpoints_timed + checkpoints_req AS n FROM pg_stat_bgwriter`;

/**
 * Samples `pg_stat_activity` of the benchmark database every `intervalMs` while a scenario
 * runs: what the busy backends wait on says whether PostgreSQL is bound by CPU, locks (e.g.
 * `Lock:transactionid`, `Lock:tuple`), WAL flushes (`IO:WALSync`, `LWLock:WALWrite`), or by
 * the application between the statements of an open transaction (`idle in transaction`).
 * Checkpoints and autovacuum during the run are counted too: both can stall a run for a moment.
 */
export class PgWaitSampler {
  private client: Client | null = null;
  private timer: NodeJS.Timeout | null = null;
  private readonly counts = new Map<string, number>();
  private active = 0;
  private samples = 0;
  private autovacuum = 0;
  private checkpointsAtStart = 0;
  private busy = false;
  /** Per backend of the database: its CPU ticks when first seen (0 if it started during the run) and when last seen. */
  private readonly backendTicks = new Map<number, { first: number; last: number }>();
  private startedAt = 0;

  constructor(
    private readonly databaseUrl: string,
    private readonly database: string,
  ) {}

  async start(intervalMs = 100): Promise<void> {
    this.client = new Client({ connectionString: this.databaseUrl, application_name: 'pis-bench-monitor' });
    await this.client.connect();
    this.checkpointsAtStart = Number((await this.client.query<{ n: string }>(CHECKPOINTS)).rows[0]!.n);
    await this.noteBackends(true);
    this.startedAt = performance.now();
    this.timer = setInterval(() => void this.sample(), intervalMs);
  }

  async stop(): Promise<WaitProfile> {
    if (this.timer) clearInterval(this.timer);
    while (this.busy) await new Promise((r) => setTimeout(r, 5));
    await this.noteBackends(false).catch(() => undefined);
    const seconds = (performance.now() - this.startedAt) / 1000;
    let ticks = 0;
    for (const { first, last } of this.backendTicks.values()) ticks += last - first;
    const checkpoints = await this.client
      ?.query<{ n: string }>(CHECKPOINTS)
      .then((r) => Number(r.rows[0]!.n) - this.checkpointsAtStart)
      .catch(() => Number.NaN);
    await this.client?.end().catch(() => undefined);
    const events = [...this.counts.entries()]
      .map(([event, n]) => ({ event, share: round(n / Math.max(1, this.active), 3) }))
      .sort((a, b) => b.share - a.share);
    return {
      meanActive: round(this.active / Math.max(1, this.samples)),
      events,
      samples: this.samples,
      checkpoints: checkpoints ?? Number.NaN,
      autovacuumShare: round(this.autovacuum / Math.max(1, this.samples), 2),
      databaseCores: round(ticks / CLOCK_TICKS / Math.max(seconds, 0.001)),
    };
  }

  /** Reads the CPU ticks of the database's backends; those first seen after the start began during the run. */
  private async noteBackends(atStart: boolean): Promise<void> {
    const { rows } = await this.client!.query<{ pid: number }>(
      `SELECT pid FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()`,
      [this.database],
    );
    for (const { pid } of rows) {
      const ticks = readStat(pid)?.cpuTicks;
      if (ticks === undefined) continue;
      const seen = this.backendTicks.get(pid);
      if (seen) seen.last = ticks;
      else this.backendTicks.set(pid, { first: atStart ? ticks : 0, last: ticks });
    }
  }

  private async sample(): Promise<void> {
    if (this.busy || this.client === null) return;
    this.busy = true;
    try {
      await this.noteBackends(false);
      const { rows } = await this.client.query<{ event: string; n: string }>(
        `SELECT CASE WHEN backend_type = 'autovacuum worker' THEN 'autovacuum'
                     WHEN state = 'active' THEN coalesce(wait_event_type || ':' || wait_event, 'CPU')
                     ELSE 'idle in transaction' END AS event, count(*) AS n
           FROM pg_stat_activity
          WHERE (backend_type = 'autovacuum worker'
                 OR (datname = $1 AND state IN ('active', 'idle in transaction') AND backend_type = 'client backend'))
            AND pid <> pg_backend_pid() AND application_name <> 'pis-bench-monitor'
          GROUP BY 1`,
        [this.database],
      );
      this.samples++;
      for (const row of rows) {
        const n = Number(row.n);
        if (row.event === 'autovacuum') {
          this.autovacuum++;
          continue;
        }
        this.active += n;
        this.counts.set(row.event, (this.counts.get(row.event) ?? 0) + n);
      }
    } catch {
      // a missed sample
    } finally {
      this.busy = false;
    }
  }
}
