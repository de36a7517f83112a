import { LocalReplica } from '@pis/persistence/test-support';
import { ADMIN_URL, databaseUrl } from '../database';
import { waitFor } from '../processes';
import type { ScenarioContext, ScenarioResult } from '../scenario';
import { startServices, type ServiceOptions } from '../services';
import type { EventFeed } from './event-feed';
import type { ListWindow } from './list-window';
import type { PutWrites } from './put-writes';

export interface ReplicaRuns {
  list: ListWindow | null;
  feed: EventFeed | null;
  puts: PutWrites | null;
}

/**
 * The reads a replica may serve, with `DATABASE_READ_URL` naming a real streaming replica of
 * the benchmark server (pg_basebackup -R, pg_ctl on a free port; its processes count as
 * `postgres`): list-window and the feed, saturated and at half rate, then put-applied (what
 * noting each write's WAL position costs). The API and the worker are started again with it;
 * each run says how many of its reads the replica served (from the API's /metrics).
 */
export async function onReadReplica(
  services: Omit<ServiceOptions, 'extraEnv'>,
  context: (running: ScenarioContext['services']) => ScenarioContext,
  runs: ReplicaRuns,
  log: (message: string) => void,
  record: (result: ScenarioResult) => void,
): Promise<void> {
  log('starting a streaming replica of the benchmark server (pg_basebackup -R, pg_ctl)');
  const replica = await LocalReplica.start({ serverUrl: ADMIN_URL });
  try {
    await replica.caughtUp();
    log(
      `replica on port ${replica.port}; starting the API (API_WORKERS=${services.apiWorkers}) with DATABASE_READ_URL`,
    );
    const running = await startServices({
      ...services,
      extraEnv: { DATABASE_READ_URL: replica.url(databaseUrl(services.database)) },
    });
    try {
      const ctx = context(running);
      await waitFor(
        'the replica to serve reads',
        async () => (await replicaReads(running.baseUrl)).serving === 1,
        60_000,
      );
      const measured = async (run: () => Promise<ScenarioResult>) => {
        const before = await replicaReads(running.baseUrl);
        const result = await run();
        const after = await replicaReads(running.baseUrl);
        const onReplica = after.replica - before.replica;
        const elsewhere = Object.entries(after.primary)
          .map(([reason, n]) => [reason, n - (before.primary[reason] ?? 0)] as const)
          .filter(([, n]) => n > 0);
        const all = onReplica + elsewhere.reduce((sum, [, n]) => sum + n, 0);
        result.metrics['reads on the replica'] = all === 0 ? '-' : `${Math.round((100 * onReplica) / all)} %`;
        result.notes.push(
          `reads a replica may serve (warm-up included): ${onReplica.toLocaleString('en')} of ${all.toLocaleString('en')} on the replica` +
            (elsewhere.length === 0
              ? ''
              : `; on the primary: ${elsewhere.map(([reason, n]) => `${n.toLocaleString('en')} ${reason}`).join(', ')}`),
        );
        record(result);
        return result;
      };
      if (runs.list) {
        log('list-window on the replica');
        const saturated = await measured(() => runs.list!.saturated(ctx, 'list-window-replica'));
        const half = Math.max(1, Math.round(saturated.load!.rps / 2));
        log(`list-window on the replica at half its rate, ${half}/s, open loop`);
        await measured(() => runs.list!.paced(ctx, half, 'list-window-replica-half-rate'));
      }
      if (runs.feed) {
        log('feed on the replica');
        const saturated = await measured(() => runs.feed!.saturated(ctx, 'feed-replica'));
        const half = Math.max(1, Math.round(saturated.load!.rps / 2));
        log(`feed on the replica at half its rate, ${half}/s, open loop`);
        await measured(() => runs.feed!.paced(ctx, half, 'feed-replica-half-rate'));
      }
      if (runs.puts) {
        log('put-applied with a replica (each write notes its WAL position)');
        record(await runs.puts.on(ctx).applied('put-applied-replica'));
      }
    } finally {
      log('stopping the API and the worker');
      await running.stop();
    }
  } finally {
    await replica.destroy();
  }
}

/** The API's routed-read counters (summed over its processes) and whether the replica serves. */
async function replicaReads(
  baseUrl: string,
): Promise<{ replica: number; primary: Record<string, number>; serving: number }> {
  const lines = (await (await fetch(`${baseUrl}/metrics`)).text()).split('\n');
  const value = (line: string) => Number(line.slice(line.lastIndexOf(' ') + 1));
  const sum = (pattern: RegExp) => lines.filter((l) => pattern.test(l)).reduce((t, l) => t + value(l), 0);
  const primary: Record<string, number> = {};
  for (const line of lines) {
    const m = /^pis_db_replica_reads_total\{(?=[^}]*source="primary")[^}]*reason="(\w+)"/.exec(line);
    if (m) primary[m[1]!] = (primary[m[1]!] ?? 0) + value(line);
  }
  return {
    replica: sum(/^pis_db_replica_reads_total\{[^}]*source="replica"/),
    primary,
    serving: sum(/^pis_db_replica_serving /),
  };
}
