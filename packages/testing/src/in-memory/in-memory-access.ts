import type {
  AccessQueries,
  ApiKeyRecord,
  ApiKeyRepository,
  Location,
  LocationRepository,
} from '@pis/domain';
import { detach } from './detach';
import type { Draft, Reader } from './state';

export class InMemoryLocationRepository implements LocationRepository {
  constructor(private readonly draft: Draft) {}

  async insert(location: Location): Promise<void> {
    if (this.draft.get('locations', location.id))
      throw new Error(`location ${location.id} is already stored`);
    this.draft.put('locations', location.id, detach(location));
  }

  async findById(id: string): Promise<Location | null> {
    return detach(this.draft.get('locations', id) ?? null);
  }
}

export class InMemoryApiKeyRepository implements ApiKeyRepository {
  constructor(private readonly draft: Draft) {}

  async insert(key: ApiKeyRecord): Promise<void> {
    if (this.draft.get('apiKeys', key.id)) throw new Error(`API key ${key.id} is already stored`);
    if ([...this.draft.map('apiKeys').values()].some((k) => k.hash === key.hash)) {
      throw new Error('an API key with this hash is already stored');
    }
    this.draft.put('apiKeys', key.id, detach(key));
  }

  /** Revoking twice keeps the first revocation time. */
  async revoke(locationId: string, keyId: string, at: ApiKeyRecord['revokedAt']): Promise<boolean> {
    const key = this.draft.get('apiKeys', keyId);
    if (!key || key.locationId !== locationId) return false;
    if (key.revokedAt === null) this.draft.put('apiKeys', keyId, { ...key, revokedAt: at });
    return true;
  }
}

export class InMemoryAccessQueries implements AccessQueries {
  constructor(private readonly read: () => Reader) {}

  async findLocation(id: string): Promise<Location | null> {
    return detach(this.read().map('locations').get(id) ?? null);
  }

  async findActiveKeyByHash(hash: string): Promise<Pick<ApiKeyRecord, 'id' | 'locationId'> | null> {
    const key = [...this.read().map('apiKeys').values()].find((k) => k.hash === hash && k.revokedAt === null);
    return key ? { id: key.id, locationId: key.locationId } : null;
  }

  async countLocations(): Promise<number> {
    return this.read().map('locations').size;
  }
}
