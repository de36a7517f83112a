import { InProcessWritePositions, type ReplicaSettings } from '@pis/persistence';
import type { Config, Logger } from '@pis/runtime';
import { RedisWritePositions } from './redis-write-positions';

/**
 * The read replica's settings from `DATABASE_READ_URL` (decision 0195), or undefined without
 * one. The positions of each location's last write live in Redis when the API processes share
 * one, in this process otherwise (the configuration refuses several API processes without
 * Redis). A replica that stops serving reads, or starts again, is said in one log line.
 */
export function replicaSettings(
  config: Config,
  logger: Logger,
  poolSize: number | undefined,
): ReplicaSettings | undefined {
  if (config.databaseReadUrl === null) return undefined;
  const maxLagMs = config.databaseReadMaxLagMs;
  return {
    url: config.databaseReadUrl,
    maxLagMs,
    poolSize,
    applicationName: 'pis-api-replica',
    positions:
      config.redis === null
        ? new InProcessWritePositions()
        : new RedisWritePositions({ redis: config.redis, maxLagMs }),
    onChange: (state, { lagMs, error }) => {
      if (state === 'serving') logger.info('read replica: serving reads again');
      else if (state === 'lagging') {
        logger.warn(
          { lagMs: lagMs === null ? null : Math.round(lagMs), maxLagMs },
          'read replica: further behind than DATABASE_READ_MAX_LAG_MS; reads go to the primary',
        );
      } else logger.warn({ err: error }, 'read replica: unavailable; reads go to the primary');
    },
    onPositionLost: (err) =>
      logger.warn(
        { err },
        "read replica: a write's WAL position could not be shared; another API process may read its location from the replica up to DATABASE_READ_MAX_LAG_MS behind",
      ),
  };
}
