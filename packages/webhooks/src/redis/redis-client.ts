import { Cluster, Redis, type ClusterOptions, type RedisOptions } from 'ioredis';

/** One seed node of a Redis Cluster. */
export interface RedisNode {
  host: string;
  port: number;
}

/**
 * Where Redis is (decision 0190): a single Redis by URL (`REDIS_URL`), or a Redis Cluster
 * through its seed nodes (`REDIS_CLUSTER_NODES`); the client learns the rest of the cluster,
 * and which node holds which slot, from them.
 */
export type RedisTarget = { url: string } | { clusterNodes: readonly RedisNode[] };

/** What every Redis user of the service holds: one Redis, or the cluster client. */
export type RedisClient = Redis | Cluster;

export function isClusterTarget(target: RedisTarget): target is { clusterNodes: readonly RedisNode[] } {
  return 'clusterNodes' in target;
}

/**
 * The one place a Redis client is made, for every user (the queue, the rate limit, the
 * write positions), named by `client` in `pis_redis_errors_total`: `options` are a single Redis's, and mean the same on a cluster. There
 * they apply to each node's connection, except what the cluster client does itself: its
 * offline queue and reconnection (`retryStrategy` becomes its `clusterRetryStrategy`).
 * Commands that meet a slot moving or a failover in progress are retried by the cluster
 * client (MOVED/ASK follow the new owner; CLUSTERDOWN and TRYAGAIN wait a moment), within
 * `maxRetriesPerRequest` where that is set. `enableAutoPipelining` applies to a single Redis
 * only: on a cluster, auto-pipelined commands in flight when a master died could wait
 * forever after its replica took over (decision 0191), so each command is sent on its own.
 */
export function createRedis(target: RedisTarget, options: RedisOptions = {}, client = 'redis'): RedisClient {
  const redis = isClusterTarget(target) ? createCluster(target, options) : new Redis(target.url, options);
  countErrors(redis, client);
  return redis;
}

/** Errors met by each client of this process, by its name; read by the metrics at each scrape. */
const errorCounts = new Map<string, number>();

/**
 * `pis_redis_errors_total{client}`: the errors each Redis client of this process met so far
 * (connections refused or lost, commands timed out; on a Redis Cluster also each node's
 * errors and failed slot refreshes), counted from the client's `error` events and, on a
 * cluster, `node error` events. Every user of `createRedis` handles the errors itself; this
 * only counts them.
 */
export function redisErrorCounts(): { client: string; count: number }[] {
  return [...errorCounts].map(([client, count]) => ({ client, count }));
}

function countErrors(redis: RedisClient, client: string): void {
  const count = () => errorCounts.set(client, (errorCounts.get(client) ?? 0) + 1);
  redis.on('error', count);
  if (redis instanceof Cluster) redis.on('node error', count);
}

function createCluster(target: { clusterNodes: readonly RedisNode[] }, options: RedisOptions): Cluster {
  const {
    enableOfflineQueue,
    enableAutoPipelining: _singleRedisOnly,
    retryStrategy,
    ...nodeOptions
  } = options;
  const clusterOptions: ClusterOptions = {
    redisOptions: nodeOptions,
    enableOfflineQueue: enableOfflineQueue ?? true,
    enableAutoPipelining: false,
    // Reads and writes go to the masters: a replica may be behind what was just written.
    scaleReads: 'master',
    retryDelayOnFailover: 100,
    retryDelayOnClusterDown: 200,
    retryDelayOnTryAgain: 100,
    slotsRefreshTimeout: 2_000,
    ...(retryStrategy ? { clusterRetryStrategy: (times: number) => retryStrategy(times) } : {}),
  };
  return new Cluster(
    target.clusterNodes.map(({ host, port }) => ({ host, port })),
    clusterOptions,
  );
}

/**
 * A key prefix whose keys all live in one hash slot on a cluster: `{prefix}` (a hash tag).
 * BullMQ runs multi-key scripts over every key of a queue, which a cluster refuses
 * (CROSSSLOT) unless they share a slot. On a single Redis the prefix is kept as it is, so
 * an existing deployment keeps its queue. A prefix that has a hash tag already is kept.
 */
export function slotPrefix(target: RedisTarget, prefix: string): string {
  if (!isClusterTarget(target) || /\{[^}]+\}/.test(prefix)) return prefix;
  return `{${prefix}}`;
}
