import type { Database } from '@pis/persistence';

export const KEY_REVOKED_CHANNEL = 'api_key_revoked';

/** A cache that can drop one key, or everything (after notifications may have been missed). */
export interface KeyCache {
  forgetKey(keyId: string): void;
  forgetAllKeys(): void;
}

/**
 * Makes a revocation reach every API process at once (decision 0008): the revoking
 * process drops the key itself and sends `NOTIFY api_key_revoked`; every process LISTENs
 * (on the database's one listening connection) and drops it too. While that connection is
 * down notifications are lost, so each (re)connection empties the cache.
 */
export class KeyRevocations {
  private unsubscribe: (() => Promise<void>) | null = null;

  constructor(
    private readonly cache: KeyCache,
    private readonly db: Database,
  ) {}

  async revoked(keyId: string): Promise<void> {
    this.cache.forgetKey(keyId);
    await this.db.notify(KEY_REVOKED_CHANNEL, keyId);
  }

  async start(): Promise<void> {
    this.unsubscribe ??= await this.db.listen(
      KEY_REVOKED_CHANNEL,
      (keyId) => {
        if (keyId) this.cache.forgetKey(keyId);
      },
      () => this.cache.forgetAllKeys(),
    );
  }

  async stop(): Promise<void> {
    await this.unsubscribe?.();
    this.unsubscribe = null;
  }
}
