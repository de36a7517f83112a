import { Client } from 'pg';

export interface NotificationListenerOptions {
  /** A direct (session) connection: LISTEN does not survive a transaction-pooling proxy. */
  connectionString: string;
  applicationName: string;
  /** Told once per lost connection (the listener reconnects by itself). */
  onConnectionLost?: (error: Error | undefined) => void;
  reconnectMs?: number;
}

type Handler = { onMessage: (payload: string) => void; onConnected?: () => void };

/**
 * One dedicated connection LISTENing on every channel a process subscribes to. A lost
 * connection is re-opened after a pause and every channel listened to again; since
 * notifications sent meanwhile are lost, each subscriber's `onConnected` runs after every
 * (re)connection so it can catch up (a relay polls, a cache empties itself).
 */
export class NotificationListener {
  private readonly channels = new Map<string, Set<Handler>>();
  private client: Client | null = null;
  private connecting: Promise<void> | null = null;
  private retryTimer: NodeJS.Timeout | null = null;
  private stopped = false;

  constructor(private readonly options: NotificationListenerOptions) {}

  /**
   * Listens on `channel` (connecting first when this is the first subscription). Resolves
   * once listening, or once the first connection attempt failed (reconnection continues in
   * the background). Answers a function that unsubscribes.
   */
  async subscribe(channel: string, handler: Handler): Promise<() => Promise<void>> {
    assertChannel(channel);
    const handlers = this.channels.get(channel) ?? new Set<Handler>();
    const first = handlers.size === 0;
    handlers.add(handler);
    this.channels.set(channel, handlers);
    this.stopped = false;
    if (this.client === null && this.connecting === null) await this.connect();
    else {
      await this.connecting;
      if (first) await this.client?.query(`LISTEN ${channel}`).catch(() => undefined);
      handler.onConnected?.();
    }
    return async () => {
      handlers.delete(handler);
      if (handlers.size > 0) return;
      this.channels.delete(channel);
      if (this.channels.size === 0) await this.stop();
      else await this.client?.query(`UNLISTEN ${channel}`).catch(() => undefined);
    };
  }

  /** Closes the connection; nothing is listened to any more. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => undefined);
  }

  private connect(): Promise<void> {
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    const client = new Client({
      connectionString: this.options.connectionString,
      application_name: this.options.applicationName,
    });
    const lost = (error?: Error) => {
      if (this.client !== client) return;
      this.client = null;
      client.end().catch(() => undefined);
      if (this.stopped) return;
      this.options.onConnectionLost?.(error);
      this.retryTimer = setTimeout(() => void this.connect(), this.options.reconnectMs ?? 1_000);
    };
    client.on('error', lost);
    client.on('end', () => lost());
    client.on('notification', (message) => {
      for (const handler of this.channels.get(message.channel) ?? [])
        handler.onMessage(message.payload ?? '');
    });
    this.client = client;
    this.connecting = (async () => {
      try {
        await client.connect();
        for (const channel of this.channels.keys()) await client.query(`LISTEN ${channel}`);
      } catch (error) {
        lost(error as Error);
        return;
      } finally {
        this.connecting = null;
      }
      for (const handlers of this.channels.values()) for (const h of handlers) h.onConnected?.();
    })();
    return this.connecting;
  }
}

/** Channel names are identifiers of ours, never input: refuse anything that would need quoting. */
function assertChannel(channel: string): void {
  if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`not a channel name: ${channel}`);
}
