import { resolve } from 'node:path';

export interface Config {
  port: number;
  /** The address the API binds; null binds every interface (Node's default). */
  host: string | null;
  /** API processes sharing the port (Node cluster); 1 runs a single process. */
  apiWorkers: number;
  databaseUrl: string | null;
  /** A direct (session) connection for LISTEN and migrations when `databaseUrl` goes through a transaction pooler. */
  databaseDirectUrl: string | null;
  /**
   * Named prepared statements on the hot paths; off behind a pooler that cannot keep them
   * (PgBouncer before 1.21), which is the default when `databaseDirectUrl` is set.
   */
  databasePreparedStatements: boolean;
  /** `DATABASE_READ_URL`: a streaming replica that serves reads of one location once it has that location's writes. */
  databaseReadUrl: string | null;
  /** `DATABASE_READ_MAX_LAG_MS` (default 1000): a replica further behind is skipped. */
  databaseReadMaxLagMs: number;
  dataDir: string;
  /**
   * The Redis every Redis user connects to (decision 0190): `REDIS_URL`, or a Redis Cluster
   * from `REDIS_CLUSTER_NODES` (which then wins); null without either.
   */
  redis: RedisTarget | null;
  backofficeToken: string | null;
  webhookRetryDelaysMs: number[];
  webhookTimeoutMs: number;
  /** `WEBHOOK_DISABLE_AFTER_HOURS` (default 120): an endpoint failing every attempt this long is disabled. */
  webhookDisableAfterHours: number;
  /** `EVENT_RETENTION_DAYS` (default 30): events, their deliveries and attempts are kept this long. */
  eventRetentionDays: number;
  webhookAllowPrivateUrls: boolean;
  webhookAllowInsecureUrls: boolean;
  rateLimitRps: number;
  /** Redis key prefix of the rate-limit counters (with Redis). */
  rateLimitPrefix: string;
  logLevel: string;
  /** `json` (default): one JSON object a line; `pretty`: readable lines for development (pino-pretty). */
  logFormat: LogFormat;
  /** base64 of 32 bytes; encrypts webhook secrets at rest. */
  secretsKey: string | null;
  /** Bearer token `GET /metrics` requires; null: open to whoever reaches the port. */
  metricsToken: string | null;
}

/** One seed node of a Redis Cluster. */
export interface RedisNode {
  host: string;
  port: number;
}

/** A single Redis (`REDIS_URL`) or a Redis Cluster reached through seed nodes (`REDIS_CLUSTER_NODES`). */
export type RedisTarget = { url: string } | { clusterNodes: RedisNode[] };

export const DEFAULT_RETRY_DELAYS_MS = [
  5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000,
];

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
    this.name = 'ConfigError';
    Object.setPrototypeOf(this, new.target.prototype);
  }
}

export const LOG_FORMATS = ['json', 'pretty'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/** Reads and validates the environment once at start; every problem is reported together. */
export function loadConfig(env: NodeJS.ProcessEnv): Config {
  const problems: string[] = [];
  const text = (name: string): string | null => {
    const value = env[name]?.trim();
    return value ? value : null;
  };
  const integer = (name: string, fallback: number, min: number, max: number): number => {
    const raw = text(name);
    if (raw === null) return fallback;
    const n = Number(raw);
    if (!/^\d+$/.test(raw) || n < min || n > max) {
      problems.push(`${name} must be an integer from ${min} to ${max} (got "${raw}")`);
      return fallback;
    }
    return n;
  };
  const flag = (name: string, fallback = false): boolean => {
    const raw = text(name);
    if (raw === null) return fallback;
    if (raw === 'true' || raw === '1') return true;
    if (raw === 'false' || raw === '0') return false;
    problems.push(`${name} must be true or false (got "${raw}")`);
    return fallback;
  };
  const url = (name: string, protocols: string[]): string | null => {
    const raw = text(name);
    if (raw === null) return null;
    try {
      const parsed = new URL(raw);
      if (!protocols.includes(parsed.protocol)) throw new Error('protocol');
      return raw;
    } catch {
      problems.push(`${name} must be a ${protocols.join(' or ')} URL`);
      return null;
    }
  };

  const retryRaw = text('WEBHOOK_RETRY_DELAYS_MS');
  let webhookRetryDelaysMs = DEFAULT_RETRY_DELAYS_MS;
  if (retryRaw !== null) {
    const parts = retryRaw.split(',').map((p) => p.trim());
    if (parts.some((p) => !/^\d+$/.test(p))) {
      problems.push('WEBHOOK_RETRY_DELAYS_MS must be comma-separated non-negative integers (milliseconds)');
    } else {
      webhookRetryDelaysMs = parts.map(Number);
    }
  }

  const logLevel = text('LOG_LEVEL') ?? 'info';
  if (!LOG_LEVELS.includes(logLevel)) problems.push(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}`);

  const logFormat = (text('LOG_FORMAT') ?? 'json') as LogFormat;
  if (!LOG_FORMATS.includes(logFormat)) problems.push(`LOG_FORMAT must be one of ${LOG_FORMATS.join(', ')}`);

  const host = text('HOST');
  if (host !== null && !/^[A-Za-z0-9.:%-]{1,253}$/.test(host)) {
    problems.push(`HOST must be an IP address or a host name to bind, e.g. 127.0.0.1 or :: (got "${host}")`);
  }

  const secretsKey = text('SECRETS_KEY');
  if (secretsKey !== null && Buffer.from(secretsKey, 'base64').length !== 32) {
    problems.push('SECRETS_KEY must be the base64 of exactly 32 bytes');
  }

  const rateLimitPrefix = text('RATE_LIMIT_PREFIX') ?? 'pis:rl';
  if (!/^[A-Za-z0-9_.:-]{1,64}$/.test(rateLimitPrefix)) {
    problems.push('RATE_LIMIT_PREFIX must be 1-64 letters, digits, dots, colons, dashes or underscores');
  }

  const databaseUrl = url('DATABASE_URL', ['postgres:', 'postgresql:']);
  const backofficeToken = text('BACKOFFICE_TOKEN');
  if (databaseUrl !== null && backofficeToken === null) {
    problems.push('BACKOFFICE_TOKEN is required when DATABASE_URL is set');
  }
  if (backofficeToken !== null && backofficeToken.length < 16) {
    problems.push('BACKOFFICE_TOKEN must be at least 16 characters');
  }

  const databaseDirectUrl = url('DATABASE_DIRECT_URL', ['postgres:', 'postgresql:']);
  if (databaseDirectUrl !== null && databaseUrl === null) {
    problems.push('DATABASE_DIRECT_URL needs DATABASE_URL: it is the session connection beside a pooled one');
  }

  const databaseReadUrl = url('DATABASE_READ_URL', ['postgres:', 'postgresql:']);
  if (databaseReadUrl !== null && databaseUrl === null) {
    problems.push('DATABASE_READ_URL needs DATABASE_URL: it names a streaming replica of that database');
  }
  const redisUrl = url('REDIS_URL', ['redis:', 'rediss:']);
  const clusterNodes = redisClusterNodes(text('REDIS_CLUSTER_NODES'), problems);
  const redis: RedisTarget | null =
    clusterNodes !== null ? { clusterNodes } : redisUrl !== null ? { url: redisUrl } : null;
  const apiWorkers = integer('API_WORKERS', 1, 1, 64);
  if (databaseReadUrl !== null && apiWorkers > 1 && redis === null) {
    problems.push(
      "DATABASE_READ_URL with API_WORKERS above 1 needs REDIS_URL or REDIS_CLUSTER_NODES: the API processes share the position of each location's last write there",
    );
  }

  const metricsToken = text('METRICS_TOKEN');
  if (metricsToken !== null && metricsToken.length < 16) {
    problems.push('METRICS_TOKEN must be at least 16 characters');
  }

  if (databaseUrl === null && env.API_WORKERS?.trim() && env.API_WORKERS.trim() !== '1') {
    problems.push('API_WORKERS above 1 needs DATABASE_URL: the embedded database belongs to one process');
  }

  const config: Config = {
    port: integer('PORT', 3000, 0, 65535),
    host,
    apiWorkers,
    databaseUrl,
    databaseDirectUrl,
    // A direct URL beside DATABASE_URL means DATABASE_URL goes through a transaction pooler.
    databasePreparedStatements: flag('DATABASE_PREPARED_STATEMENTS', databaseDirectUrl === null),
    databaseReadUrl,
    databaseReadMaxLagMs: integer('DATABASE_READ_MAX_LAG_MS', 1_000, 10, 3_600_000),
    dataDir: resolve(text('DATA_DIR') ?? './.data'),
    redis,
    backofficeToken,
    webhookRetryDelaysMs,
    webhookTimeoutMs: integer('WEBHOOK_TIMEOUT_MS', 10_000, 1, 600_000),
    webhookDisableAfterHours: integer('WEBHOOK_DISABLE_AFTER_HOURS', 120, 1, 8_760),
    eventRetentionDays: integer('EVENT_RETENTION_DAYS', 30, 1, 3_650),
    webhookAllowPrivateUrls: flag('WEBHOOK_ALLOW_PRIVATE_URLS'),
    webhookAllowInsecureUrls: flag('WEBHOOK_ALLOW_INSECURE_URLS'),
    rateLimitRps: integer('RATE_LIMIT_RPS', 100, 0, 1_000_000),
    rateLimitPrefix,
    logLevel,
    logFormat,
    secretsKey,
    metricsToken,
  };
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}

/** `host:port,host:port,...` (IPv6 hosts in brackets); null when unset, with a problem when malformed. */
function redisClusterNodes(raw: string | null, problems: string[]): RedisNode[] | null {
  if (raw === null) return null;
  const nodes: RedisNode[] = [];
  for (const part of raw.split(',').map((p) => p.trim())) {
    const match = /^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]{1,253}):(\d{1,5})$/.exec(part);
    const port = Number(match?.[2]);
    if (!match || port < 1 || port > 65535) {
      problems.push(
        `REDIS_CLUSTER_NODES must be comma-separated host:port seed nodes of a Redis Cluster, e.g. 10.0.0.1:6379,10.0.0.2:6379 (got "${raw}")`,
      );
      return null;
    }
    nodes.push({ host: match[1]!.replace(/^\[|\]$/g, ''), port });
  }
  return nodes;
}

/** The webhook URLs a process accepts and delivers to, as its `GET /healthz` tells them. */
export function webhookUrlRules(config: Config): {
  webhookAllowInsecureUrls: boolean;
  webhookAllowPrivateUrls: boolean;
} {
  return {
    webhookAllowInsecureUrls: config.webhookAllowInsecureUrls,
    webhookAllowPrivateUrls: config.webhookAllowPrivateUrls,
  };
}
