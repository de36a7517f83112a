import { performance } from 'node:perf_hooks';
import { InProcessWritePositions, type WritePositions } from '@pis/persistence';
import { createRedis, type RedisClient, type RedisTarget } from '@pis/webhooks';

/** Keeps the larger position; refreshes the expiry either way. */
const RECORD = `local kept = tonumber(redis.call('GET', KEYS[1]) or '0')
if tonumber(ARGV[1]) > kept then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
else
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 1`;

export interface RedisWritePositionsOptions {
  /** The Redis or Redis Cluster the API processes share. */
  redis: RedisTarget;
  /** `DATABASE_READ_MAX_LAG_MS`: how long a position lost with Redis can still matter. */
  maxLagMs: number;
  /** Key prefix (default `pis:wal`): `<prefix>:<locationId>`. */
  prefix?: string;
  /** The connection's name in `CLIENT LIST` (default `pis-api-write-positions`). */
  connectionName?: string;
}

/**
 * Each location's last write position in Redis, shared by every API process and instance
 * (decision 0195). A write made in one process is read through another; an API process
 * cluster or several instances need this.
 *
 * Whatever Redis cannot answer, the primary does: `latest` rejects while the connection is
 * down and for `maxLagMs` after it is back (a position recorded meanwhile may have been lost,
 * and after that long a replica within the allowed lag has replayed its write anyway). A
 * position that could not be stored is still kept in this process, so its own reads stay
 * exact. Entries expire a minute (or ten lags) after their location's last write: by then a
 * replica within the allowed lag has it.
 */
export class RedisWritePositions implements WritePositions {
  private readonly redis: RedisClient;
  private readonly local = new InProcessWritePositions();
  private readonly prefix: string;
  private readonly ttlMs: number;
  /** performance.now() until which Redis's answers are not trusted; Infinity while it is down. */
  private untrustedUntil = Infinity;
  private everReady = false;

  constructor(private readonly options: RedisWritePositionsOptions) {
    this.prefix = options.prefix ?? 'pis:wal';
    this.ttlMs = Math.max(60_000, options.maxLagMs * 10);
    // One key per command (each location's own): a cluster spreads them over its slots.
    this.redis = createRedis(
      options.redis,
      {
        connectionName: options.connectionName ?? 'pis-api-write-positions',
        enableOfflineQueue: false,
        commandTimeout: 250,
        maxRetriesPerRequest: 1,
        retryStrategy: (attempt) => Math.min(attempt * 200, 2_000),
        // The writes of one turn of the event loop go out in one round trip.
        enableAutoPipelining: true,
      },
      'write-positions',
    );
    this.redis.defineCommand('pisRecordPosition', { numberOfKeys: 1, lua: RECORD });
    this.redis.on('error', () => undefined);
    this.redis.on('close', () => {
      this.untrustedUntil = Infinity;
    });
    this.redis.on('ready', () => {
      // The first connection lost nothing; a reconnection may have (a restart without
      // persistence, or positions this process failed to store while it was down).
      this.untrustedUntil = this.everReady ? performance.now() + options.maxLagMs : 0;
      this.everReady = true;
    });
  }

  async record(location: string, position: number): Promise<void> {
    await this.local.record(location, position);
    const redis = this.redis as RedisClient & {
      pisRecordPosition(key: string, position: string, ttlMs: string): Promise<number>;
    };
    await redis.pisRecordPosition(this.key(location), String(position), String(this.ttlMs));
  }

  async latest(location: string): Promise<number> {
    if (performance.now() < this.untrustedUntil) {
      throw new Error('the write positions in Redis are not known right now');
    }
    const [shared, own] = await Promise.all([
      this.redis.get(this.key(location)),
      this.local.latest(location),
    ]);
    return Math.max(Number(shared ?? 0), own);
  }

  async close(): Promise<void> {
    this.redis.disconnect();
  }

  private key(location: string): string {
    return `${this.prefix}:${location}`;
  }
}
