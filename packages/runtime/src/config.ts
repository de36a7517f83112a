import { resolve } from 'node:path';

export interface Config {
  port: number;
  /** API processes sharing the port (Node cluster); 1 runs a single process. */
  apiWorkers: number;
  databaseUrl: string | null;
  dataDir: string;
  redisUrl: string | null;
  backofficeToken: string | null;
  webhookRetryDelaysMs: number[];
  webhookTimeoutMs: number;
  webhookAllowPrivateUrls: boolean;
  webhookAllowInsecureUrls: boolean;
  rateLimitRps: number;
  logLevel: string;
  /** base64 of 32 bytes; encrypts webhook secrets at rest. */
  secretsKey: string | null;
}

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
  const flag = (name: string): boolean => {
    const raw = text(name);
    if (raw === null) return false;
    if (raw === 'true' || raw === '1') return true;
    if (raw === 'false' || raw === '0') return false;
    problems.push(`${name} must be true or false (got "${raw}")`);
    return false;
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

  const secretsKey = text('SECRETS_KEY');
  if (secretsKey !== null && Buffer.from(secretsKey, 'base64').length !== 32) {
    problems.push('SECRETS_KEY must be the base64 of exactly 32 bytes');
  }

  const databaseUrl = url('DATABASE_URL', ['postgres:', 'postgresql:']);
  const backofficeToken = text('BACKOFFICE_TOKEN');
  if (databaseUrl !== null && backofficeToken === null) {
    problems.push('BACKOFFICE_TOKEN is required when DATABASE_URL is set');
  }
  if (backofficeToken !== null && backofficeToken.length < 16) {
    problems.push('BACKOFFICE_TOKEN must be at least 16 characters');
  }

  if (databaseUrl === null && env.API_WORKERS?.trim() && env.API_WORKERS.trim() !== '1') {
    problems.push('API_WORKERS above 1 needs DATABASE_URL: the embedded database belongs to one process');
  }

  const config: Config = {
    port: integer('PORT', 3000, 0, 65535),
    apiWorkers: integer('API_WORKERS', 1, 1, 64),
    databaseUrl,
    dataDir: resolve(text('DATA_DIR') ?? './.data'),
    redisUrl: url('REDIS_URL', ['redis:', 'rediss:']),
    backofficeToken,
    webhookRetryDelaysMs,
    webhookTimeoutMs: integer('WEBHOOK_TIMEOUT_MS', 10_000, 1, 600_000),
    webhookAllowPrivateUrls: flag('WEBHOOK_ALLOW_PRIVATE_URLS'),
    webhookAllowInsecureUrls: flag('WEBHOOK_ALLOW_INSECURE_URLS'),
    rateLimitRps: integer('RATE_LIMIT_RPS', 100, 0, 1_000_000),
    logLevel,
    secretsKey,
  };
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}
