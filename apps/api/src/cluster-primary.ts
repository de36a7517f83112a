import cluster, { type Worker } from 'node:cluster';
import { aggregateClusterMetrics, type Logger } from '@pis/runtime';

/**
 * With `API_WORKERS` > 1 the primary only supervises: it forks the API processes (they
 * share the port; the primary hands each connection to one of them), forks a replacement
 * when one dies, merges their metrics for whichever of them a scrape reached, and on
 * SIGTERM/SIGINT asks each to shut down gracefully and waits.
 */
export function superviseApiWorkers(count: number, logger: Logger): void {
  let stopping = false;
  aggregateClusterMetrics();
  const fork = () => cluster.fork();
  for (let i = 0; i < count; i++) fork();

  cluster.on('exit', (worker: Worker, code, signal) => {
    if (stopping) return;
    logger.error({ pid: worker.process.pid, code, signal }, 'API worker died; starting another');
    setTimeout(fork, 500);
  });

  const shutdown = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'stopping API workers');
    const workers = Object.values(cluster.workers ?? {}).filter((w): w is Worker => w !== undefined);
    let alive = workers.length;
    if (alive === 0) process.exit(0);
    for (const worker of workers) {
      worker.once('exit', () => {
        if (--alive === 0) process.exit(0);
      });
      worker.process.kill('SIGTERM');
    }
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}
