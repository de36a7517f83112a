import { Client } from 'pg';
import { runCommand, tail, waitFor } from './command';

/** What a connection to a PostgreSQL URL finds. */
export type PostgresState =
  | { state: 'ready' }
  /** The server lets the user in, but the URL's database does not exist. */
  | { state: 'no-database'; database: string }
  /** Nothing listens, or the server is starting or stopping. */
  | { state: 'down'; reason: string }
  /** The server answers but turns the user away (password, pg_hba.conf). */
  | { state: 'refused'; reason: string };

/** A cluster of Debian's postgresql-common, as `pg_lsclusters` lists it. */
export interface PostgresCluster {
  version: string;
  name: string;
  port: number;
  online: boolean;
  logFile: string;
}

const DOWN_CODES = new Set(['ECONNREFUSED', 'ENOENT', 'ETIMEDOUT', 'EHOSTUNREACH', '57P03']);

/** Host, port and database of a connection URL, with libpq's defaults. */
export function postgresAddress(url: string): { host: string; port: number; database: string } {
  const parsed = new URL(url);
  return {
    host: parsed.hostname.replace(/^\[|\]$/g, '') || 'localhost',
    port: Number(parsed.port || 5432),
    database: decodeURIComponent(parsed.pathname.slice(1)) || decodeURIComponent(parsed.username),
  };
}

/** Connects to `url` once and says what it found. Never throws. */
export async function postgresState(url: string): Promise<PostgresState> {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 3_000 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query('SELECT 1');
    return { state: 'ready' };
  } catch (error) {
    const { code, message } = error as { code?: string; message: string };
    if (code === '3D000') return { state: 'no-database', database: postgresAddress(url).database };
    if ((code && DOWN_CODES.has(code)) || /timeout/i.test(message)) return { state: 'down', reason: message };
    return { state: 'refused', reason: message };
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Creates the database `url` names, through the server's `postgres` database. */
export async function createDatabase(url: string): Promise<void> {
  const admin = new URL(url);
  const { database } = postgresAddress(url);
  admin.pathname = '/postgres';
  const client = new Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE "${database.replace(/"/g, '""')}"`);
  } catch (error) {
    // Another set-up running at the same time made it first: the database is there.
    if ((error as { code?: string }).code !== '42P04') throw error;
  } finally {
    await client.end();
  }
}

/** The Debian clusters on this machine; none when postgresql-common is not installed. */
export async function postgresClusters(): Promise<PostgresCluster[]> {
  const listed = await runCommand('pg_lsclusters', ['--no-header']);
  if (listed.code !== 0) return [];
  return listed.output
    .split('\n')
    .map((line) => line.trim().split(/\s+/))
    .filter((fields) => fields.length >= 7)
    .map(([version, name, port, status, , , logFile]) => ({
      version: version!,
      name: name!,
      port: Number(port),
      online: status === 'online',
      logFile: logFile!,
    }));
}

/** The command that starts a Debian cluster without systemd, as {@link startPostgresCluster} runs it. */
export function postgresStartCommand(cluster: Pick<PostgresCluster, 'version' | 'name'>): string {
  return `pg_ctlcluster --skip-systemctl-redirect ${cluster.version} ${cluster.name} start`;
}

/**
 * Starts a Debian cluster (as root, or as its owner) and waits until `url`, a URL on its
 * port, lets the user in or turns them away; throws with pg_ctlcluster's words otherwise.
 */
export async function startPostgresCluster(cluster: PostgresCluster, url: string): Promise<void> {
  const started = await runCommand('pg_ctlcluster', [
    '--skip-systemctl-redirect',
    cluster.version,
    cluster.name,
    'start',
  ]);
  const answers = async () => (await postgresState(url)).state !== 'down';
  const answered = started.code === 0 ? await waitFor(answers, 30_000) : await answers();
  if (!answered) {
    throw new Error(
      `${postgresStartCommand(cluster)} did not bring PostgreSQL up on port ${cluster.port}: ${
        tail(started.output) || `exit ${started.code}`
      } (see ${cluster.logFile})`,
    );
  }
}
