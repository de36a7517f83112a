import { ConfigError, loadConfig } from '@pis/runtime';
import { loadWorkerSettings } from '../src/worker-settings';

const REQUIRED = {
  DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/pis',
  REDIS_URL: 'redis://127.0.0.1:6379',
  BACKOFFICE_TOKEN: 'a-long-enough-backoffice-token',
};

const settingsOf = (env: Record<string, string>) => loadWorkerSettings(loadConfig(env), env);

describe('loadWorkerSettings', () => {
  it('When only the required variables are set, then the README defaults apply: prefix pis, 64 slots, metrics on 9464', () => {
    expect(settingsOf(REQUIRED)).toEqual({
      databaseUrl: REQUIRED.DATABASE_URL,
      redis: { url: REQUIRED.REDIS_URL },
      queuePrefix: 'pis',
      concurrency: 64,
      metricsPort: 9464,
    });
  });

  it('When the worker variables are set, then they are read; 0 asks for any free metrics port', () => {
    const settings = settingsOf({
      ...REQUIRED,
      WEBHOOK_QUEUE_PREFIX: 'staging.pis',
      WEBHOOK_WORKER_CONCURRENCY: '8',
      WORKER_METRICS_PORT: '0',
    });

    expect(settings).toMatchObject({ queuePrefix: 'staging.pis', concurrency: 8, metricsPort: 0 });
  });

  it('When REDIS_CLUSTER_NODES is set instead of REDIS_URL, then the worker takes its deliveries from that cluster', () => {
    const { REDIS_URL: _single, ...withoutUrl } = REQUIRED;
    const settings = settingsOf({ ...withoutUrl, REDIS_CLUSTER_NODES: '127.0.0.1:7000,127.0.0.1:7001' });

    expect(settings.redis).toEqual({
      clusterNodes: [
        { host: '127.0.0.1', port: 7000 },
        { host: '127.0.0.1', port: 7001 },
      ],
    });
  });

  it('When the database, Redis or a worker variable is missing or wrong, then every problem is named at once', () => {
    const attempt = () =>
      settingsOf({
        BACKOFFICE_TOKEN: REQUIRED.BACKOFFICE_TOKEN,
        WEBHOOK_QUEUE_PREFIX: 'no spaces',
        WEBHOOK_WORKER_CONCURRENCY: '0',
        WORKER_METRICS_PORT: '70000',
      });

    expect(attempt).toThrow(ConfigError);
    for (const problem of [
      /DATABASE_URL is required/,
      /REDIS_URL is required/,
      /WEBHOOK_QUEUE_PREFIX must be 1-64 letters/,
      /WEBHOOK_WORKER_CONCURRENCY must be an integer from 1 to 1000 \(got "0"\)/,
      /WORKER_METRICS_PORT must be an integer from 0 to 65535 \(got "70000"\)/,
    ])
      expect(attempt).toThrow(problem);
  });
});
