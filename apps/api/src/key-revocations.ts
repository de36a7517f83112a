import type { Database } from '@pis/persistence';

export const KEY_REVOKED_CHANNEL = 'api_key_revoked';
export const CONNECTION_REVOKED_CHANNEL = 'connection_revoked';

/** A cache that can drop one key or connection, or everything (after notifications may have been missed). */
export interface KeyCache {
  forgetKey(keyId: string): void;
  forgetConnection(providerId: string, locationId: string): void;
  forgetAllKeys(): void;
}

/**
 * Makes a revocation reach every API process at once (decision 0008): the revoking
 * process drops the key (or a provider's connection to a location) itself and sends
 * `NOTIFY api_key_revoked` (`connection_revoked`, payload `<providerId>:<locationId>`); every
 * process LISTENs (on the database's one listening connection) and drops it too. While that
 * connection is down notifications are lost, so each (re)connection empties the cache.
 */
export class KeyRevocations {
  private unsubscribe: (() => Promise<void>)[] = [];

  constructor(
    private readonly cache: KeyCache,
    private readonly db: Database,
  ) {}

  async revoked(keyId: string): Promise<void> {
    this.cache.forgetKey(keyId);
    await this.db.notify(KEY_REVOKED_CHANNEL, keyId);
  }

  async connectionRevoked(providerId: string, locationId: string): Promise<void> {
    this.cache.forgetConnection(providerId, locationId);
    await this.db.notify(CONNECTION_REVOKED_CHANNEL, `${providerId}:${locationId}`);
  }

  async start(): Promise<void> {
    if (this.unsubscribe.length > 0) return;
    this.unsubscribe = [
      await this.db.listen(
        KEY_REVOKED_CHANNEL,
        (keyId) => {
          if (keyId) this.cache.forgetKey(keyId);
        },
        () => this.cache.forgetAllKeys(),
      ),
      await this.db.listen(
        CONNECTION_REVOKED_CHANNEL,
        (pair) => {
          const [providerId, locationId] = pair.split(':');
          if (providerId && locationId) this.cache.forgetConnection(providerId, locationId);
        },
        () => this.cache.forgetAllKeys(),
      ),
    ];
  }

  async stop(): Promise<void> {
    const unsubscribe = this.unsubscribe;
    this.unsubscribe = [];
    for (const stop of unsubscribe) await stop();
  }
}
