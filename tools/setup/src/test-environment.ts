import {
  cannotInstallPackages,
  installCommand,
  installPackages,
  isExecutable,
  missingPackages,
  type DebianPackage,
} from './debian';
import {
  createDatabase,
  postgresAddress,
  postgresClusters,
  postgresStartCommand,
  postgresState,
  startPostgresCluster,
} from './postgres';
import { redisAnswers, redisServerCommand, startRedis } from './redis';

/** The Debian packages the Jest projects need, installed when missing. */
export const TEST_PACKAGES: readonly DebianPackage[] = [
  {
    name: 'chromium',
    provides: '/usr/bin/chromium',
    neededBy: 'the browser tests of the docs and console pages',
  },
  { name: 'pgbouncer', provides: '/usr/sbin/pgbouncer', neededBy: 'the transaction-pooler suite' },
  { name: 'prometheus', provides: '/usr/bin/promtool', neededBy: 'promtool check metrics' },
  {
    name: 'redis-server',
    provides: '/usr/bin/redis-server',
    neededBy: 'the shared Redis and the suites that start Redis servers of their own',
  },
];

export interface SetupOptions {
  /** The server the tests use (PIS_TEST_DATABASE_URL). */
  databaseUrl: string;
  /** The Redis the tests use (PIS_TEST_REDIS_URL). */
  redisUrl: string;
  /** A Chromium of the user's own (PIS_CHROMIUM): checked, never installed. */
  chromium?: string | undefined;
  /** Default {@link TEST_PACKAGES}. */
  packages?: readonly DebianPackage[];
  /** Only look: report what a run would change, change nothing. */
  check?: boolean;
  /** Default: whether this process runs as root. */
  asRoot?: boolean;
  /** Each finding and change as it happens. */
  log?: (line: string) => void;
}

export interface SetupReport {
  /** What the run changed (with `check`, would change), in order. */
  changes: string[];
  /** What is missing that the run could not or may not fix, each with what fixes it. */
  problems: string[];
}

const LOCAL_HOSTS = new Set(['127.0.0.1', 'localhost', '::1']);

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * Brings this machine to what the Jest projects need, changing only what is missing:
 * installs the Debian packages (as root), starts the local PostgreSQL cluster and Redis when
 * they are down, creates the tests' database. A second run finds everything in place and
 * changes nothing.
 */
export async function setUpTestEnvironment(options: SetupOptions): Promise<SetupReport> {
  const log = options.log ?? (() => undefined);
  const check = options.check ?? false;
  const asRoot = options.asRoot ?? process.getuid?.() === 0;
  const report: SetupReport = { changes: [], problems: [] };
  const change: Change = {
    did(text) {
      report.changes.push(text);
      log(text);
    },
    would(text) {
      report.changes.push(text);
      log(`would ${text}`);
    },
  };
  const problem = (text: string) => report.problems.push(text);

  // Packages first: a Redis can start only once redis-server is there.
  let packages = options.packages ?? TEST_PACKAGES;
  if (options.chromium) {
    packages = packages.filter((pkg) => pkg.name !== 'chromium');
    if (isExecutable(options.chromium)) log(`Chromium: ${options.chromium} (PIS_CHROMIUM)`);
    else
      problem(`PIS_CHROMIUM=${options.chromium} is not an executable: point it at a Chromium, or unset it`);
  }
  const missing = missingPackages(packages);
  const names = missing.map((pkg) => pkg.name);
  if (missing.length === 0) {
    log(`installed: ${packages.map((pkg) => `${pkg.name} (${pkg.provides})`).join(', ')}`);
  } else {
    const why = missing.map((pkg) => `${pkg.name} (${pkg.provides}, for ${pkg.neededBy})`).join(', ');
    const cannot = cannotInstallPackages(asRoot);
    if (cannot) {
      problem(`missing ${why}; ${cannot}. Install them with:\n    ${installCommand(names, asRoot)}`);
    } else if (check) {
      change.would(`install ${names.join(' ')}`);
    } else {
      log(`installing ${why}`);
      try {
        await installPackages(names);
      } catch (error) {
        problem(`${message(error)}; the command: ${installCommand(names, asRoot)}`);
      }
      const still = missingPackages(missing);
      if (still.length === 0) change.did(`installed ${names.join(' ')}`);
      else if (report.problems.length === 0) {
        problem(
          `apt-get installed ${names.join(' ')} but ${still.map((pkg) => pkg.provides).join(', ')} is missing`,
        );
      }
    }
  }

  await setUpPostgres(options.databaseUrl, check, change, problem, log);
  await setUpRedis(options.redisUrl, check, change, problem, log);
  return report;
}

/** A change made (`did`) or, when only checking, one a run would make (`would`). */
interface Change {
  did(text: string): void;
  would(text: string): void;
}
type Note = (text: string) => void;

async function setUpPostgres(url: string, check: boolean, change: Change, problem: Note, log: Note) {
  const { host, port, database } = postgresAddress(url);
  const where = `${host}:${port}`;
  let found = await postgresState(url);
  if (found.state === 'down') {
    const cluster = LOCAL_HOSTS.has(host)
      ? (await postgresClusters()).find((candidate) => candidate.port === port)
      : undefined;
    if (!cluster) {
      problem(
        `PostgreSQL does not answer at ${where} (${found.reason}) and ` +
          (LOCAL_HOSTS.has(host)
            ? `no Debian cluster here listens on port ${port} (pg_lsclusters)`
            : 'the set-up starts only servers on this machine') +
          ': start it, or point PIS_TEST_DATABASE_URL at one',
      );
      return;
    }
    const name = `PostgreSQL ${cluster.version}/${cluster.name} on port ${port}`;
    if (check) {
      change.would(`start ${name} (${postgresStartCommand(cluster)})`);
      return;
    }
    try {
      await startPostgresCluster(cluster, url);
    } catch (error) {
      problem(`${message(error)}; start it as root with: ${postgresStartCommand(cluster)}`);
      return;
    }
    change.did(`started ${name}`);
    found = await postgresState(url);
  }
  if (found.state === 'refused') {
    problem(
      `PostgreSQL at ${where} turns the tests away: ${found.reason}. They connect as in ` +
        `PIS_TEST_DATABASE_URL (default user postgres, no password): allow it in pg_hba.conf or set the URL`,
    );
  } else if (found.state === 'no-database') {
    if (check) change.would(`create database ${database} at ${where}`);
    else {
      try {
        await createDatabase(url);
        change.did(`created database ${database} at ${where}`);
      } catch (error) {
        problem(`cannot create database ${database} at ${where}: ${message(error)}`);
      }
    }
  } else if (found.state === 'ready') {
    log(`PostgreSQL answers at ${where} (database ${database})`);
  } else {
    problem(`PostgreSQL at ${where} is still down: ${found.reason}`);
  }
}

async function setUpRedis(url: string, check: boolean, change: Change, problem: Note, log: Note) {
  const parsed = new URL(url);
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  const port = Number(parsed.port || 6379);
  const where = `${host}:${port}`;
  if (await redisAnswers(url)) {
    log(`Redis answers at ${where}`);
    return;
  }
  if (!LOCAL_HOSTS.has(host)) {
    problem(
      `Redis does not answer at ${where}; the set-up starts only servers on this machine: start it, or point PIS_TEST_REDIS_URL at one`,
    );
    return;
  }
  if (check) {
    change.would(`start Redis at 127.0.0.1:${port} (${redisServerCommand({ port })})`);
    return;
  }
  try {
    await startRedis({ port });
    change.did(`started Redis at 127.0.0.1:${port}`);
  } catch (error) {
    problem(`${message(error)}; start it as root with: ${redisServerCommand({ port })}`);
  }
}
