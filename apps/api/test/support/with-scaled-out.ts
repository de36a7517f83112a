import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { LocalReplica } from '@pis/persistence/test-support';
import { RedisTestCluster } from '@pis/webhooks/test-support';
import { OtlpReceiver } from './otlp-receiver';

/*
 * `pnpm test:scaled-out [jest arguments]`: Jest with every API a suite starts configured as a
 * scaled-out deployment runs (docs/reference/running.md#scaling-out): reading from a real
 * streaming replica of the test server (DATABASE_READ_URL), on a real Redis Cluster
 * (REDIS_CLUSTER_NODES: rate limit, write positions, and the delivery queue of a worker started
 * beside the API), and exporting traces over OTLP/HTTP (OTEL_*). One replica, one cluster and
 * one OTLP receiver for the run, started first and removed at the end (also on Ctrl-C); the
 * number of spans received is printed last. Without arguments it runs the API's HTTP suites.
 */
const ROOT = join(__dirname, '../../../..');

async function main(): Promise<number> {
  const args = process.argv.slice(2);
  const started = Date.now();
  const [replica, cluster, otlp] = await Promise.all([
    LocalReplica.start(),
    RedisTestCluster.start(),
    OtlpReceiver.start(),
  ]);
  process.stdout.write(
    `read replica on port ${replica.port}; Redis Cluster ${cluster.nodes}; OTLP receiver ${otlp.origin}\n`,
  );
  let stopping: Promise<unknown> | null = null;
  const stop = () => (stopping ??= Promise.allSettled([replica.destroy(), cluster.destroy(), otlp.close()]));
  try {
    const jest = spawn(
      process.execPath,
      [
        // The OTLP exporter loads `http` with a dynamic import(), which a test file's sandbox
        // answers only with Jest's ES module support on.
        '--experimental-vm-modules',
        '--no-warnings',
        join(ROOT, 'node_modules/jest/bin/jest.js'),
        ...(args.length > 0 ? args : ['apps/api/test/[^/]+\\.spec\\.ts$']),
        // Last: the option takes every argument after it.
        '--setupFilesAfterEnv',
        join(__dirname, 'scaled-out-tracing.ts'),
      ],
      {
        cwd: ROOT,
        stdio: 'inherit',
        env: {
          ...process.env,
          PIS_TEST_READ_REPLICA_PORT: String(replica.port),
          PIS_TEST_REDIS_CLUSTER_NODES: cluster.nodes,
          ...otlp.env(),
          OTEL_SERVICE_NAME: 'pis-api-test',
        },
      },
    );
    for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => jest.kill(signal));
    const code = await new Promise<number>((resolve) => jest.on('exit', (c) => resolve(c ?? 1)));
    const byName = new Map<string, number>();
    for (const span of otlp.spans) byName.set(span.name, (byName.get(span.name) ?? 0) + 1);
    const top = [...byName.entries()].sort((a, b) => b[1] - a[1]).slice(0, 8);
    const byService = new Map<string, number>();
    for (const span of otlp.spans) {
      const service = String(span.resource['service.name'] ?? '?');
      byService.set(service, (byService.get(service) ?? 0) + 1);
    }
    process.stdout.write(
      `\nscaled out: ${otlp.spans.length} spans received in ${Math.round((Date.now() - started) / 1000)} s` +
        ` (${new Set(otlp.spans.map((s) => s.traceId)).size} traces; by service: ` +
        `${[...byService.entries()].map(([name, n]) => `${name} ${n}`).join(', ')}; most frequent: ` +
        `${top.map(([name, n]) => `${name} ${n}`).join(', ')})\n`,
    );
    return code;
  } finally {
    await stop();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
