import { ConfigError, DEFAULT_RETRY_DELAYS_MS, loadConfig } from './config';

describe('loadConfig', () => {
  it('When the environment is empty, then the embedded defaults of the README Configuration table apply', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      databaseUrl: null,
      redis: null,
      backofficeToken: null,
      webhookRetryDelaysMs: DEFAULT_RETRY_DELAYS_MS,
      webhookTimeoutMs: 10_000,
      webhookAllowPrivateUrls: false,
      webhookAllowInsecureUrls: false,
      rateLimitRps: 100,
      rateLimitPrefix: 'pis:rl',
      logLevel: 'info',
      databaseDirectUrl: null,
      databasePreparedStatements: true,
      metricsToken: null,
      logFormat: 'json',
      host: null,
    });
    expect(config.dataDir.endsWith('.data')).toBe(true);
  });

  it("When the environment is empty, then the contract's webhook, retention and health defaults apply, spelled out", () => {
    const config = loadConfig({});

    // 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h: eight attempts, then the delivery has failed.
    expect(config.webhookRetryDelaysMs).toEqual([
      5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000,
    ]);
    expect(config).toMatchObject({ eventRetentionDays: 30, webhookDisableAfterHours: 120 });
  });

  it('When DATABASE_DIRECT_URL is set beside DATABASE_URL, then prepared statements default to off (a transaction pooler), unless told otherwise', () => {
    const pooled = {
      DATABASE_URL: 'postgres://postgres@127.0.0.1:6432/pis',
      DATABASE_DIRECT_URL: 'postgres://postgres@127.0.0.1:5432/pis',
      BACKOFFICE_TOKEN: 'a-long-enough-token',
      METRICS_TOKEN: 'a-long-metrics-token',
    };

    const config = loadConfig(pooled);
    const told = loadConfig({ ...pooled, DATABASE_PREPARED_STATEMENTS: 'true' });
    const direct = loadConfig({ ...pooled, DATABASE_DIRECT_URL: '', DATABASE_PREPARED_STATEMENTS: '' });

    expect(config).toMatchObject({
      databaseDirectUrl: 'postgres://postgres@127.0.0.1:5432/pis',
      databasePreparedStatements: false,
      metricsToken: 'a-long-metrics-token',
    });
    expect(told.databasePreparedStatements).toBe(true);
    expect(direct.databasePreparedStatements).toBe(true);
  });

  it('When DATABASE_READ_URL names a replica, then reads may go there with a lag of 1000 ms allowed by default; unset, nothing changes', () => {
    const primary = {
      DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/pis',
      BACKOFFICE_TOKEN: 'a-long-enough-token',
    };

    const plain = loadConfig(primary);
    const replica = loadConfig({ ...primary, DATABASE_READ_URL: 'postgres://postgres@127.0.0.1:5433/pis' });
    const strict = loadConfig({
      ...primary,
      DATABASE_READ_URL: 'postgres://postgres@127.0.0.1:5433/pis',
      DATABASE_READ_MAX_LAG_MS: '250',
      API_WORKERS: '2',
      REDIS_URL: 'redis://127.0.0.1:6379',
    });

    expect(plain).toMatchObject({ databaseReadUrl: null, databaseReadMaxLagMs: 1_000 });
    expect(replica).toMatchObject({
      databaseReadUrl: 'postgres://postgres@127.0.0.1:5433/pis',
      databaseReadMaxLagMs: 1_000,
    });
    expect(strict).toMatchObject({ databaseReadMaxLagMs: 250, apiWorkers: 2 });
  });

  it('When the read replica settings cannot work, then each problem is named', () => {
    const attempt = (env: Record<string, string>) => () => loadConfig(env);

    expect(attempt({ DATABASE_READ_URL: 'postgres://postgres@127.0.0.1:5433/pis' })).toThrow(
      /DATABASE_READ_URL needs DATABASE_URL/,
    );
    expect(
      attempt({
        DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/pis',
        BACKOFFICE_TOKEN: 'a-long-enough-token',
        DATABASE_READ_URL: 'mysql://replica/pis',
        DATABASE_READ_MAX_LAG_MS: '5',
      }),
    ).toThrow(
      /DATABASE_READ_URL must be a postgres: or postgresql: URL[\s\S]*DATABASE_READ_MAX_LAG_MS must be an integer from 10/,
    );
    // Each API process would keep its own positions: a write through one, a read through another.
    expect(
      attempt({
        DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/pis',
        BACKOFFICE_TOKEN: 'a-long-enough-token',
        DATABASE_READ_URL: 'postgres://postgres@127.0.0.1:5433/pis',
        API_WORKERS: '2',
      }),
    ).toThrow(/DATABASE_READ_URL with API_WORKERS above 1 needs REDIS_URL/);
  });

  it('When the operations variables are wrong, then each is named', () => {
    const attempt = () =>
      loadConfig({
        DATABASE_DIRECT_URL: 'postgres://postgres@127.0.0.1:5432/pis',
        DATABASE_PREPARED_STATEMENTS: 'sometimes',
        METRICS_TOKEN: 'short',
      });

    expect(attempt).toThrow(ConfigError);
    expect(() => attempt()).toThrow(/DATABASE_DIRECT_URL needs DATABASE_URL/);
    expect(() => attempt()).toThrow(/DATABASE_PREPARED_STATEMENTS must be true or false/);
    expect(() => attempt()).toThrow(/METRICS_TOKEN must be at least 16 characters/);
  });

  it('When values are given, then they are parsed into their types', () => {
    const config = loadConfig({
      PORT: '8080',
      DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/test',
      REDIS_URL: 'redis://127.0.0.1:6379',
      BACKOFFICE_TOKEN: 'a-long-enough-token',
      WEBHOOK_RETRY_DELAYS_MS: '10, 20,30',
      WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
      RATE_LIMIT_RPS: '0',
      RATE_LIMIT_PREFIX: 'pis-test:rl',
      HOST: '127.0.0.1',
      LOG_FORMAT: 'pretty',
    });
    expect(config.port).toBe(8080);
    expect(config.host).toBe('127.0.0.1');
    expect(config.logFormat).toBe('pretty');
    expect(config.rateLimitPrefix).toBe('pis-test:rl');
    expect(config.webhookRetryDelaysMs).toEqual([10, 20, 30]);
    expect(config.webhookAllowPrivateUrls).toBe(true);
    expect(config.rateLimitRps).toBe(0);
  });

  it('When several values are wrong, then one error names every problem', () => {
    const attempt = () =>
      loadConfig({
        PORT: 'eighty',
        DATABASE_URL: 'mysql://x',
        WEBHOOK_RETRY_DELAYS_MS: '5,soon',
        LOG_LEVEL: 'loud',
        SECRETS_KEY: 'c2hvcnQ=',
        HOST: 'my host',
        LOG_FORMAT: 'fancy',
        RATE_LIMIT_PREFIX: 'has space',
      });
    expect(attempt).toThrow(ConfigError);
    try {
      attempt();
    } catch (error) {
      const problems = (error as ConfigError).problems.join('\n');
      for (const name of [
        'PORT',
        'DATABASE_URL',
        'WEBHOOK_RETRY_DELAYS_MS',
        'LOG_LEVEL',
        'SECRETS_KEY',
        'HOST',
        'LOG_FORMAT',
        'RATE_LIMIT_PREFIX',
      ]) {
        expect(problems).toContain(name);
      }
    }
  });

  it('When DATABASE_URL is set without BACKOFFICE_TOKEN, then start-up is refused', () => {
    expect(() => loadConfig({ DATABASE_URL: 'postgres://postgres@127.0.0.1/test' })).toThrow(
      /BACKOFFICE_TOKEN/,
    );
  });

  it('When REDIS_URL is set, then every Redis user connects to that one Redis', () => {
    expect(loadConfig({ REDIS_URL: 'redis://127.0.0.1:6379' }).redis).toEqual({
      url: 'redis://127.0.0.1:6379',
    });
  });

  it('When REDIS_CLUSTER_NODES is set, then Redis is that cluster, reached through each seed node (REDIS_URL beside it is not used)', () => {
    const config = loadConfig({
      REDIS_URL: 'redis://127.0.0.1:6379',
      REDIS_CLUSTER_NODES: ' 10.0.0.1:7000, redis-2.internal:7001,[::1]:7002 ',
    });

    expect(config.redis).toEqual({
      clusterNodes: [
        { host: '10.0.0.1', port: 7000 },
        { host: 'redis-2.internal', port: 7001 },
        { host: '::1', port: 7002 },
      ],
    });
  });

  it.each(['10.0.0.1', '10.0.0.1:7000,', 'redis://10.0.0.1:7000', '10.0.0.1:0', '10.0.0.1:70000'])(
    'When REDIS_CLUSTER_NODES is "%s", then the start is refused naming the variable and its form',
    (nodes) => {
      expect(() => loadConfig({ REDIS_CLUSTER_NODES: nodes })).toThrow(
        /REDIS_CLUSTER_NODES must be comma-separated host:port seed nodes/,
      );
    },
  );

  it('When a read replica with several API processes has a Redis Cluster, then the positions are shared there and the start is accepted', () => {
    const config = loadConfig({
      DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/pis',
      BACKOFFICE_TOKEN: 'a-long-enough-token',
      DATABASE_READ_URL: 'postgres://postgres@127.0.0.1:5433/pis',
      API_WORKERS: '2',
      REDIS_CLUSTER_NODES: '127.0.0.1:7000',
    });

    expect(config.redis).toEqual({ clusterNodes: [{ host: '127.0.0.1', port: 7000 }] });
  });
});
