/**
 * The set-up `pnpm test` runs before it builds: installs the Debian packages the Jest
 * projects need (as root), starts the local PostgreSQL cluster and Redis when they are down,
 * creates the tests' database. Changes only what is missing; says so when nothing is.
 *
 *   pnpm test:setup            # set up (what `pnpm test` and `.ci/run` run)
 *   pnpm test:setup --check    # report what a run would change; exit 1 when it would change something
 *
 * Honours PIS_TEST_DATABASE_URL, PIS_TEST_REDIS_URL and PIS_CHROMIUM as the tests do.
 * Exit 1 when something is missing that it may not fix, naming the command that fixes it.
 */
import { setUpTestEnvironment } from './test-environment';

async function main(): Promise<number> {
  const args = process.argv.slice(2);
  const unknown = args.filter((arg) => arg !== '--check');
  if (unknown.length > 0) {
    process.stderr.write(`set-up: unknown argument ${unknown.join(' ')}; usage: pnpm test:setup [--check]\n`);
    return 2;
  }
  const check = args.includes('--check');
  const say = (line: string) => process.stdout.write(`set-up: ${line}\n`);
  const report = await setUpTestEnvironment({
    databaseUrl: process.env['PIS_TEST_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test',
    redisUrl: process.env['PIS_TEST_REDIS_URL'] ?? 'redis://127.0.0.1:6379',
    chromium: process.env['PIS_CHROMIUM'],
    check,
    log: say,
  });
  if (report.problems.length > 0) {
    process.stderr.write(
      `set-up: the tests cannot run on this machine yet:\n${report.problems.map((text) => `  - ${text}\n`).join('')}`,
    );
    return 1;
  }
  const changes = report.changes.join('; ');
  if (check) say(report.changes.length === 0 ? 'would change nothing' : `would change: ${changes}`);
  else say(report.changes.length === 0 ? 'changed nothing' : `changed: ${changes}`);
  return check && report.changes.length > 0 ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(
      `set-up: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exit(1);
  },
);
