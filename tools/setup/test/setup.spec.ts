import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { Client } from 'pg';
import { packagesWithoutCandidate, redisAnswers, setUpTestEnvironment } from '../src';

const ROOT = join(__dirname, '../../..');
const SERVER = process.env['PIS_TEST_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';
const SHARED_REDIS = process.env['PIS_TEST_REDIS_URL'] ?? 'redis://127.0.0.1:6379';

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** `pnpm test:setup [args]` as its own process, with `env` over this one's. */
function setUp(args: string[], env: Record<string, string>) {
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'tools/setup/src/main.ts', ...args],
      { cwd: ROOT, env: { ...process.env, ...env } },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

const lastLine = (text: string) => text.trimEnd().split('\n').at(-1);

function databaseUrl(database: string): string {
  const url = new URL(SERVER);
  url.pathname = `/${database}`;
  return url.toString();
}

async function adminQuery(sql: string): Promise<void> {
  const client = new Client({ connectionString: SERVER });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

async function redisRunId(port: number): Promise<string | undefined> {
  const redis = new Redis(port, '127.0.0.1', { maxRetriesPerRequest: 1 });
  try {
    return /run_id:(\w+)/.exec(await redis.info('server'))?.[1];
  } finally {
    redis.disconnect();
  }
}

async function shutDownRedis(port: number): Promise<void> {
  if (!(await redisAnswers(`redis://127.0.0.1:${port}`))) return;
  const redis = new Redis(port, '127.0.0.1', { maxRetriesPerRequest: 0, retryStrategy: () => null });
  redis.on('error', () => undefined);
  await redis.call('SHUTDOWN', 'NOSAVE').catch(() => undefined);
  redis.disconnect();
  rmSync(`/var/log/redis/ci-${port}.log`, { force: true });
}

describe('the set-up pnpm test runs first', () => {
  // A Redis of these tests' own on a free port and a database of their own: the shared
  // Redis and PostgreSQL other test runs use are never stopped.
  let port: number;
  const database = `pis_setup_${randomBytes(4).toString('hex')}`;

  beforeAll(async () => {
    port = await freePort();
  });

  afterAll(async () => {
    await shutDownRedis(port);
    await adminQuery(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
  });

  it(
    'starts a Redis that is down and creates a missing database, and a second run changes nothing',
    async () => {
      const env = {
        PIS_TEST_REDIS_URL: `redis://127.0.0.1:${port}`,
        PIS_TEST_DATABASE_URL: databaseUrl(database),
      };

      const first = await setUp([], env);
      expect(first.stderr).toBe('');
      expect(first.code).toBe(0);
      expect(first.stdout).toContain(`set-up: created database ${database} at 127.0.0.1:5432\n`);
      expect(first.stdout).toContain(`set-up: started Redis at 127.0.0.1:${port}\n`);
      expect(lastLine(first.stdout)).toMatch(/^set-up: changed: .*started Redis at 127\.0\.0\.1:\d+$/);
      const redis = new Redis(port, '127.0.0.1', { maxRetriesPerRequest: 1 });
      try {
        // As the shared Redis is started: nothing written to disk.
        expect(await redis.config('GET', 'save')).toEqual(['save', '']);
        expect(await redis.config('GET', 'appendonly')).toEqual(['appendonly', 'no']);
      } finally {
        redis.disconnect();
      }
      const started = await redisRunId(port);

      const second = await setUp([], env);
      expect(second.code).toBe(0);
      expect(second.stdout).toContain(`set-up: Redis answers at 127.0.0.1:${port}\n`);
      expect(second.stdout).toContain(
        `set-up: PostgreSQL answers at 127.0.0.1:5432 (database ${database})\n`,
      );
      expect(lastLine(second.stdout)).toBe('set-up: changed nothing');
      expect(await redisRunId(port)).toBe(started);

      const checked = await setUp(['--check'], env);
      expect(checked.code).toBe(0);
      expect(lastLine(checked.stdout)).toBe('set-up: would change nothing');
    },
    // A first run on a machine that lacks one of the Debian packages installs it.
    600_000,
  );

  it('with --check only reports what it would start, and exits 1', async () => {
    const idle = await freePort();
    const checked = await setUp(['--check'], { PIS_TEST_REDIS_URL: `redis://127.0.0.1:${idle}` });
    expect(checked.code).toBe(1);
    expect(checked.stdout).toContain(
      `set-up: would start Redis at 127.0.0.1:${idle} (redis-server --daemonize yes --bind 127.0.0.1 -::1 ` +
        `--port ${idle} --save "" --appendonly no --dir /var/lib/redis --logfile /var/log/redis/ci-${idle}.log)\n`,
    );
    expect(lastLine(checked.stdout)).toMatch(/^set-up: would change: /);
    expect(await redisAnswers(`redis://127.0.0.1:${idle}`)).toBe(false);
  });

  it('names a missing package and the one command that installs it when it may not install', async () => {
    const report = await setUpTestEnvironment({
      databaseUrl: SERVER,
      redisUrl: SHARED_REDIS,
      packages: [
        { name: 'pis-no-such-package', provides: '/nonexistent/pis-no-such-tool', neededBy: 'this test' },
      ],
      asRoot: false,
      check: true,
    });
    expect(report.changes).toEqual([]);
    expect(report.problems).toEqual([
      'missing pis-no-such-package (/nonexistent/pis-no-such-tool, for this test); installing needs root. ' +
        'Install them with:\n    sudo apt-get update && sudo apt-get install -y --no-install-recommends pis-no-such-package',
    ]);
  });

  it('tells a package no source offers from one that can be installed', async () => {
    expect(await packagesWithoutCandidate(['pis-no-such-package', 'redis-server'])).toEqual([
      'pis-no-such-package',
    ]);
  });

  it('says when PostgreSQL turns the tests user away instead of trying to start it', async () => {
    const url = new URL(SERVER);
    url.username = 'pis_no_such_role';
    const report = await setUpTestEnvironment({
      databaseUrl: url.toString(),
      redisUrl: SHARED_REDIS,
      packages: [],
      check: true,
    });
    expect(report.changes).toEqual([]);
    expect(report.problems).toHaveLength(1);
    expect(report.problems[0]).toMatch(
      /^PostgreSQL at 127\.0\.0\.1:5432 turns the tests away: .*pis_no_such_role/,
    );
  });
});
