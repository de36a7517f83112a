import { ConfigError, DEFAULT_RETRY_DELAYS_MS, loadConfig } from './config';

describe('loadConfig', () => {
  it('When the environment is empty, then the embedded defaults of decisions section 9 apply', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      databaseUrl: null,
      redisUrl: null,
      backofficeToken: null,
      webhookRetryDelaysMs: DEFAULT_RETRY_DELAYS_MS,
      webhookTimeoutMs: 10_000,
      webhookAllowPrivateUrls: false,
      webhookAllowInsecureUrls: false,
      rateLimitRps: 100,
      logLevel: 'info',
    });
    expect(config.dataDir.endsWith('.data')).toBe(true);
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
    });
    expect(config.port).toBe(8080);
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
      });
    expect(attempt).toThrow(ConfigError);
    try {
      attempt();
    } catch (error) {
      const problems = (error as ConfigError).problems.join('\n');
      for (const name of ['PORT', 'DATABASE_URL', 'WEBHOOK_RETRY_DELAYS_MS', 'LOG_LEVEL', 'SECRETS_KEY']) {
        expect(problems).toContain(name);
      }
    }
  });

  it('When DATABASE_URL is set without BACKOFFICE_TOKEN, then start-up is refused', () => {
    expect(() => loadConfig({ DATABASE_URL: 'postgres://postgres@127.0.0.1/test' })).toThrow(
      /BACKOFFICE_TOKEN/,
    );
  });
});
