import {
  ownProviderId,
  type AccessQueries,
  type ActiveKey,
  type ApiKeyRecord,
  type ApiKeyRepository,
  type Connection,
  type ConnectionCursor,
  type ConnectionRepository,
  type GrantResult,
  type Instant,
  type Location,
  type LocationConnection,
  type LocationRepository,
  type NewestFirstCursor,
  type Provider,
  type ProviderConnection,
  type ProviderKeyRecord,
  type ProviderRepository,
} from '../../src';
import { detach } from './detach';
import { compareIds, lastSequence, scoped, type Draft, type Reader } from './state';

/** A location comes with its own provider and that provider's connection to it, from its first event. */
export class InMemoryLocationRepository implements LocationRepository {
  constructor(private readonly draft: Draft) {}

  async insert(location: Location): Promise<void> {
    if (this.draft.get('locations', location.id))
      throw new Error(`location ${location.id} is already stored`);
    this.draft.put('locations', location.id, detach(location));
    const providerId = ownProviderId(location.id);
    const { name, brand, createdAt } = location;
    this.draft.put('providers', providerId, {
      provider: { id: providerId, name, brand, createdAt },
      ownLocationId: location.id,
    });
    this.draft.put('connections', scoped(location.id, providerId), {
      connection: {
        locationId: location.id,
        providerId,
        status: 'active',
        grantedAt: createdAt,
        revokedAt: null,
      },
      spans: [{ after: 0, through: null }],
    });
  }

  async findById(id: string): Promise<Location | null> {
    return detach(this.draft.get('locations', id) ?? null);
  }
}

export class InMemoryApiKeyRepository implements ApiKeyRepository {
  constructor(private readonly draft: Draft) {}

  async insert(key: ApiKeyRecord): Promise<void> {
    if (this.draft.get('apiKeys', key.id) || this.draft.get('providerKeys', key.id)) {
      throw new Error(`API key ${key.id} is already stored`);
    }
    if (hashTaken(this.draft, key.hash)) throw new Error('an API key with this hash is already stored');
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

const hashTaken = (read: Reader, hash: string): boolean =>
  [...read.map('apiKeys').values(), ...read.map('providerKeys').values()].some((k) => k.hash === hash);

export class InMemoryProviderRepository implements ProviderRepository {
  constructor(private readonly draft: Draft) {}

  async insert(provider: Provider): Promise<void> {
    if (this.draft.get('providers', provider.id))
      throw new Error(`provider ${provider.id} is already stored`);
    this.draft.put('providers', provider.id, { provider: detach(provider), ownLocationId: null });
  }

  async insertKey(key: ProviderKeyRecord): Promise<void> {
    if (this.draft.get('apiKeys', key.id) || this.draft.get('providerKeys', key.id)) {
      throw new Error(`API key ${key.id} is already stored`);
    }
    if (hashTaken(this.draft, key.hash)) throw new Error('an API key with this hash is already stored');
    this.draft.put('providerKeys', key.id, detach(key));
  }

  async revokeKey(providerId: string, keyId: string, at: ProviderKeyRecord['revokedAt']): Promise<boolean> {
    const key = this.draft.get('providerKeys', keyId);
    if (!key || key.providerId !== providerId) return false;
    if (key.revokedAt === null) this.draft.put('providerKeys', keyId, { ...key, revokedAt: at });
    return true;
  }
}

/** Units of work run one at a time here, so the span fences are exact by construction. */
export class InMemoryConnectionRepository implements ConnectionRepository {
  constructor(private readonly draft: Draft) {}

  async grant(locationId: string, providerId: string, at: Instant): Promise<GrantResult> {
    const key = scoped(locationId, providerId);
    const stored = this.draft.get('connections', key);
    if (stored?.connection.status === 'active')
      return { kind: 'unchanged', connection: detach(stored.connection) };
    const connection: Connection = {
      locationId,
      providerId,
      status: 'active',
      grantedAt: at,
      revokedAt: null,
    };
    const span = { after: lastSequence(this.draft, locationId), through: null };
    this.draft.put('connections', key, { connection, spans: [...(stored?.spans ?? []), span] });
    return { kind: stored ? 'regranted' : 'created', connection: detach(connection) };
  }

  async revoke(locationId: string, providerId: string, at: Instant) {
    const key = scoped(locationId, providerId);
    const stored = this.draft.get('connections', key);
    if (!stored) return { kind: 'none' as const };
    if (stored.connection.status === 'revoked') {
      return { kind: 'unchanged' as const, connection: detach(stored.connection) };
    }
    const connection: Connection = { ...stored.connection, status: 'revoked', revokedAt: at };
    const through = lastSequence(this.draft, locationId);
    const spans = stored.spans.map((s) => (s.through === null ? { ...s, through } : s));
    this.draft.put('connections', key, { connection, spans });
    return { kind: 'revoked' as const, connection: detach(connection) };
  }
}

const newestFirst = (a: NewestFirstCursor, b: NewestFirstCursor) =>
  b.createdAt.compare(a.createdAt) || compareIds(b.id, a.id);

export class InMemoryAccessQueries implements AccessQueries {
  constructor(private readonly read: () => Reader) {}

  async findLocation(id: string): Promise<Location | null> {
    return detach(this.read().map('locations').get(id) ?? null);
  }

  async findActiveKeyByHash(hash: string): Promise<ActiveKey | null> {
    const read = this.read();
    const key = [...read.map('apiKeys').values()].find((k) => k.hash === hash && k.revokedAt === null);
    if (key) return { id: key.id, providerId: ownProviderId(key.locationId), locationId: key.locationId };
    const pk = [...read.map('providerKeys').values()].find((k) => k.hash === hash && k.revokedAt === null);
    return pk ? { id: pk.id, providerId: pk.providerId, locationId: null } : null;
  }

  async countLocations(): Promise<number> {
    return this.read().map('locations').size;
  }

  async isConnected(providerId: string, locationId: string): Promise<boolean> {
    return this.read().map('connections').get(scoped(locationId, providerId))?.connection.status === 'active';
  }

  async findProvider(id: string): Promise<Provider | null> {
    const found = this.read().map('providers').get(id);
    return found && found.ownLocationId === null ? detach(found.provider) : null;
  }

  async listProviders(after: NewestFirstCursor | null, limit: number): Promise<Provider[]> {
    return [...this.read().map('providers').values()]
      .filter((p) => p.ownLocationId === null)
      .map((p) => p.provider)
      .filter((p) => after === null || newestFirst(after, p) < 0)
      .sort(newestFirst)
      .slice(0, limit)
      .map(detach);
  }

  async listLocations(after: NewestFirstCursor | null, limit: number): Promise<Location[]> {
    return [...this.read().map('locations').values()]
      .filter((l) => after === null || newestFirst(after, l) < 0)
      .sort(newestFirst)
      .slice(0, limit)
      .map(detach);
  }

  async listLocationConnections(locationId: string): Promise<LocationConnection[]> {
    const read = this.read();
    return [...read.map('connections').values()]
      .map((c) => c.connection)
      .filter((c) => c.locationId === locationId)
      .sort((a, b) => a.grantedAt.compare(b.grantedAt) || compareIds(a.providerId, b.providerId))
      .map((c) => {
        const provider = read.map('providers').get(c.providerId)!;
        return {
          ...detach(c),
          providerName: provider.provider.name,
          own: provider.ownLocationId === locationId,
        };
      });
  }

  async listProviderConnections(
    providerId: string,
    after: ConnectionCursor | null,
    limit: number,
  ): Promise<ProviderConnection[]> {
    const read = this.read();
    const byGrant = (a: ConnectionCursor, b: ConnectionCursor) =>
      a.grantedAt.compare(b.grantedAt) || compareIds(a.locationId, b.locationId);
    return [...read.map('connections').values()]
      .map((c) => c.connection)
      .filter((c) => c.providerId === providerId && (after === null || byGrant(c, after) > 0))
      .sort(byGrant)
      .slice(0, limit)
      .map((c) => {
        const { name, currency, sandbox } = read.map('locations').get(c.locationId)!;
        return { ...detach(c), name, currency, sandbox };
      });
  }
}
