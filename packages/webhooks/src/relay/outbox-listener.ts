import { OUTBOX_CHANNEL } from '@pis/persistence';
import { Client } from 'pg';
import type { Logger } from 'pino';

/**
 * `LISTEN outbox_events` on a dedicated connection, calling `onNotify` for every commit that
 * appended events. It only makes the relay prompt: a notification lost while reconnecting
 * is covered by the relay's poll, so a broken connection is simply re-opened after a pause.
 */
export class OutboxListener {
  private client: Client | null = null;
  private stopped = true;
  private retryTimer: NodeJS.Timeout | null = null;

  constructor(
    private readonly databaseUrl: string,
    private readonly onNotify: () => void,
    private readonly logger: Logger,
    private readonly reconnectMs = 1_000,
  ) {}

  async start(): Promise<void> {
    this.stopped = false;
    await this.connect();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    const client = new Client({
      connectionString: this.databaseUrl,
      application_name: 'pis-outbox-listener',
    });
    const reconnect = (err?: Error) => {
      if (this.client !== client) return;
      this.client = null;
      client.end().catch(() => undefined);
      if (this.stopped) return;
      this.logger.warn({ err }, 'outbox listener connection lost; reconnecting');
      this.retryTimer = setTimeout(() => void this.connect(), this.reconnectMs);
    };
    client.on('error', reconnect);
    client.on('end', () => reconnect());
    client.on('notification', () => this.onNotify());
    this.client = client;
    try {
      await client.connect();
      await client.query(`LISTEN ${OUTBOX_CHANNEL}`);
      // Events committed while no one listened are found by this wake-up.
      this.onNotify();
    } catch (err) {
      reconnect(err as Error);
    }
  }
}
