import { Client } from 'pg';
import type { Logger } from 'pino';
import type { DataSource } from 'typeorm';

export const KEY_REVOKED_CHANNEL = 'api_key_revoked';

/** A cache that can drop one key, or everything (after notifications may have been missed). */
export interface KeyCache {
  forgetKey(keyId: string): void;
  forgetAllKeys(): void;
}

/**
 * Makes a revocation reach every API process at once (decision 0008): the revoking
 * process drops the key itself and sends `NOTIFY api_key_revoked`; every process LISTENs
 * and drops it too. While the listening connection is down notifications are lost, so
 * each (re)connection empties the cache.
 */
export class KeyRevocations {
  private client: Client | null = null;
  private stopped = true;
  private retry: NodeJS.Timeout | null = null;

  constructor(
    private readonly cache: KeyCache,
    private readonly db: DataSource,
    private readonly databaseUrl: string | null,
    private readonly logger: Logger,
  ) {}

  async revoked(keyId: string): Promise<void> {
    this.cache.forgetKey(keyId);
    if (this.databaseUrl !== null)
      await this.db.query('SELECT pg_notify($1, $2)', [KEY_REVOKED_CHANNEL, keyId]);
  }

  async start(): Promise<void> {
    if (this.databaseUrl === null) return;
    this.stopped = false;
    await this.connect();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.retry) clearTimeout(this.retry);
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    const client = new Client({
      connectionString: this.databaseUrl!,
      application_name: 'pis-key-revocations',
    });
    const reconnect = (err?: Error) => {
      if (this.client !== client) return;
      this.client = null;
      client.end().catch(() => undefined);
      if (this.stopped) return;
      this.logger.warn({ err }, 'key revocation listener lost its connection; reconnecting');
      this.retry = setTimeout(() => void this.connect(), 1_000);
    };
    client.on('error', reconnect);
    client.on('end', () => reconnect());
    client.on('notification', (message) => {
      if (message.payload) this.cache.forgetKey(message.payload);
    });
    this.client = client;
    try {
      await client.connect();
      await client.query(`LISTEN ${KEY_REVOKED_CHANNEL}`);
      this.cache.forgetAllKeys();
    } catch (err) {
      reconnect(err as Error);
    }
  }
}
