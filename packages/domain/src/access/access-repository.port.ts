import type { KeyKind, KeyMode } from './api-key';
import type { Connection, ConnectionCursor, LocationConnection, ProviderConnection } from './connection';
import type { ApiKeyRecord, Location } from './location';
import type { NewestFirstCursor, Provider, ProviderKeyRecord } from './provider';

/** Used inside a unit of work. */
export interface LocationRepository {
  /**
   * Stores the location together with its own provider (id `ownProviderId(location.id)`, the
   * location's name and brand) and that provider's active connection to it, which covers
   * every event of the location.
   */
  insert(location: Location): Promise<void>;
  findById(id: string): Promise<Location | null>;
}

/** Used inside a unit of work. Location keys: keys of the location's own provider, pinned to it. */
export interface ApiKeyRepository {
  insert(key: ApiKeyRecord): Promise<void>;
  /** Marks the key revoked; false when the location holds no such key. */
  revoke(locationId: string, keyId: string, at: ApiKeyRecord['revokedAt']): Promise<boolean>;
}

/** Used inside a unit of work: providers the operator creates, and their keys. */
export interface ProviderRepository {
  insert(provider: Provider): Promise<void>;
  insertKey(key: ProviderKeyRecord): Promise<void>;
  /** Marks the key revoked (the first revocation time stays); false when the provider holds no such key. */
  revokeKey(providerId: string, keyId: string, at: ProviderKeyRecord['revokedAt']): Promise<boolean>;
}

/** What a grant did: made the first connection, renewed a revoked one, or found it active. */
export type GrantResult = { kind: 'created' | 'regranted' | 'unchanged'; connection: Connection };

/** Used inside a unit of work. Every method serialises with the others on the same pair. */
export interface ConnectionRepository {
  /**
   * Makes the connection active. A new span of the location's events opens after the last
   * sequence committed before the grant (none opens when it was already active).
   */
  grant(locationId: string, providerId: string, at: Connection['grantedAt']): Promise<GrantResult>;
  /**
   * Marks an active connection revoked and closes its span at the last sequence committed
   * before the revoke. `unchanged` when it was revoked already, `none` when it never existed.
   */
  revoke(
    locationId: string,
    providerId: string,
    at: Connection['grantedAt'],
  ): Promise<{ kind: 'revoked' | 'unchanged'; connection: Connection } | { kind: 'none' }>;
}

/** A key the service knows, as authentication needs it. */
export interface ActiveKey {
  id: string;
  /** The provider the key acts for (a location key's: the location's own provider). */
  providerId: string;
  /** A location key's location; null for a provider key. */
  locationId: string | null;
}

export interface AccessQueries {
  findLocation(id: string): Promise<Location | null>;
  /** The unrevoked key (of either kind) with this hash, or null. */
  findActiveKeyByHash(hash: string): Promise<ActiveKey | null>;
  countLocations(): Promise<number>;
  /** Whether the provider's connection to the location is active now. */
  isConnected(providerId: string, locationId: string): Promise<boolean>;

  /** A provider the operator created (a location's own provider is not one), or null. */
  findProvider(id: string): Promise<Provider | null>;
  /** Operator-created providers, newest first (createdAt, then id, descending), strictly after `after`. */
  listProviders(after: NewestFirstCursor | null, limit: number): Promise<Provider[]>;
  /** Locations, newest first (createdAt, then id, descending), strictly after `after`. */
  listLocations(after: NewestFirstCursor | null, limit: number): Promise<Location[]>;
  /** Every connection of the location, active and revoked, by grantedAt then provider id. */
  listLocationConnections(locationId: string): Promise<LocationConnection[]>;
  /** The provider's connections, active and revoked, by (grantedAt, locationId), strictly after `after`. */
  listProviderConnections(
    providerId: string,
    after: ConnectionCursor | null,
    limit: number,
  ): Promise<ProviderConnection[]>;
}

export interface KeyHasher {
  /** SHA-256, hex. Deterministic so a key can be looked up by its hash. */
  hash(key: string): string;
}

export interface SecretFactory {
  /**
   * A key of `mode` and `kind` (default: a location key, `API_KEY_PATTERN`; a provider key:
   * `PROVIDER_KEY_PATTERN`), see `newApiKey`, its secret from a CSPRNG.
   */
  apiKey(brand: string, mode: KeyMode, kind?: KeyKind): string;
  /** `whsec_` followed by base64 of 24-64 random bytes. */
  webhookSecret(): string;
}
