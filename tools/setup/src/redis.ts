import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { Redis } from 'ioredis';
import { acceptsConnections, runCommand, tail, waitFor } from './command';

/** A redis-server started by {@link startRedis}: daemonized, no persistence. */
export interface RedisServerOptions {
  port: number;
  /** Addresses to listen on; default loopback only (`127.0.0.1 -::1`, the IPv6 one optional). */
  bind?: readonly string[];
  /** Working directory (a cluster node keeps its nodes.conf there); default /var/lib/redis. */
  dir?: string;
  /** Default /var/log/redis/ci.log on 6379, /var/log/redis/ci-<port>.log on any other port. */
  logfile?: string;
  /** More `--name value` arguments, e.g. `['--cluster-enabled', 'yes']`. */
  args?: readonly string[];
}

/** Whether a Redis answers PING at `url`. Never throws. */
export async function redisAnswers(url: string): Promise<boolean> {
  // Nothing listening is the common "down"; ioredis would keep a timer of a failed connect alive.
  const { hostname, port } = new URL(url);
  if (!(await acceptsConnections(hostname.replace(/^\[|\]$/g, ''), Number(port || 6379)))) return false;
  const redis = new Redis(url, {
    lazyConnect: true,
    connectTimeout: 2_000,
    retryStrategy: () => null,
    maxRetriesPerRequest: 0,
  });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    return (await redis.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    redis.disconnect();
  }
}

function withDefaults(options: RedisServerOptions): Required<RedisServerOptions> {
  return {
    port: options.port,
    bind: options.bind ?? ['127.0.0.1', '-::1'],
    dir: options.dir ?? '/var/lib/redis',
    logfile:
      options.logfile ??
      (options.port === 6379 ? '/var/log/redis/ci.log' : `/var/log/redis/ci-${options.port}.log`),
    args: options.args ?? [],
  };
}

/** The arguments {@link startRedis} gives redis-server. */
export function redisServerArgs(options: RedisServerOptions): string[] {
  const o = withDefaults(options);
  return [
    '--daemonize',
    'yes',
    '--bind',
    ...o.bind,
    '--port',
    String(o.port),
    '--save',
    '',
    '--appendonly',
    'no',
    '--dir',
    o.dir,
    '--logfile',
    o.logfile,
    ...o.args,
  ];
}

/** The command line of {@link startRedis}, as a person would type it. */
export function redisServerCommand(options: RedisServerOptions): string {
  return ['redis-server', ...redisServerArgs(options).map((arg) => (arg === '' ? '""' : arg))].join(' ');
}

/**
 * Starts a daemonized redis-server on 127.0.0.1:`port` and waits until it answers PING;
 * throws with redis-server's own words (its output, then its log) when it does not.
 * A Redis that already answers there is left alone: a second start on a taken port fails
 * to bind, which is the same outcome.
 */
export async function startRedis(options: RedisServerOptions): Promise<void> {
  const o = withDefaults(options);
  const url = `redis://127.0.0.1:${o.port}`;
  for (const dir of [o.dir, o.logfile.replace(/\/[^/]*$/, '')]) {
    try {
      mkdirSync(dir, { recursive: true });
    } catch {
      // redis-server says why it cannot use the directory
    }
  }
  const started = await runCommand('redis-server', redisServerArgs(o));
  // A refused configuration exits at once; a daemon that forked may need a moment to listen.
  const answered =
    started.code === 0 ? await waitFor(() => redisAnswers(url), 30_000) : await redisAnswers(url);
  if (answered) return;
  const log = existsSync(o.logfile) ? tail(readFileSync(o.logfile, 'utf8')) : '';
  throw new Error(
    `redis-server did not answer on 127.0.0.1:${o.port}: ${tail(started.output).trim() || `exit ${started.code}`}` +
      (log ? `\n${o.logfile}:\n${log}` : ''),
  );
}

/** Starts a Redis on 127.0.0.1:`port` unless one answers there already; says which. */
export async function ensureRedis(options: RedisServerOptions): Promise<'answering' | 'started'> {
  if (await redisAnswers(`redis://127.0.0.1:${options.port}`)) return 'answering';
  await startRedis(options);
  return 'started';
}
