import type { KeyMode } from './api-key';
import type { ApiKeyRecord, Location } from './location';

/** Used inside a unit of work. */
export interface LocationRepository {
  insert(location: Location): Promise<void>;
  findById(id: string): Promise<Location | null>;
}

/** Used inside a unit of work. */
export interface ApiKeyRepository {
  insert(key: ApiKeyRecord): Promise<void>;
  /** Marks the key revoked; false when the location holds no such key. */
  revoke(locationId: string, keyId: string, at: ApiKeyRecord['revokedAt']): Promise<boolean>;
}

export interface AccessQueries {
  findLocation(id: string): Promise<Location | null>;
  /** The unrevoked key with this hash, or null. */
  findActiveKeyByHash(hash: string): Promise<Pick<ApiKeyRecord, 'id' | 'locationId'> | null>;
  countLocations(): Promise<number>;
}

export interface KeyHasher {
  /** SHA-256, hex. Deterministic so a key can be looked up by its hash. */
  hash(key: string): string;
}

export interface SecretFactory {
  /** A key of `API_KEY_PATTERN` in `mode` (see `newApiKey`), its secret from a CSPRNG. */
  apiKey(brand: string, mode: KeyMode): string;
  /** `whsec_` followed by base64 of 24-64 random bytes. */
  webhookSecret(): string;
}
