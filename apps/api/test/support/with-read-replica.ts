import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { LocalReplica } from '@pis/persistence/test-support';

/*
 * `pnpm test:replica [jest arguments]`: Jest with every API a suite starts reading from a real
 * streaming replica of the test server (DATABASE_READ_URL), as a deployment with a replica
 * would. One replica for the run, started first and removed at the end (also on Ctrl-C).
 * Without arguments it runs the API's HTTP suites.
 */
const ROOT = join(__dirname, '../../../..');

async function main(): Promise<number> {
  const args = process.argv.slice(2);
  const replica = await LocalReplica.start();
  process.stdout.write(`read replica on port ${replica.port} (slot ${replica.slot})\n`);
  let stopping: Promise<void> | null = null;
  const stop = () => (stopping ??= replica.destroy());
  try {
    const jest = spawn(
      process.execPath,
      [
        join(ROOT, 'node_modules/jest/bin/jest.js'),
        ...(args.length > 0 ? args : ['apps/api/test/[^/]+\\.spec\\.ts$']),
      ],
      {
        cwd: ROOT,
        stdio: 'inherit',
        env: { ...process.env, PIS_TEST_READ_REPLICA_PORT: String(replica.port) },
      },
    );
    for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => jest.kill(signal));
    return await new Promise<number>((resolve) => jest.on('exit', (code) => resolve(code ?? 1)));
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
