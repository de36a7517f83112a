import type { Instant } from '../shared/instant';

export interface Location {
  id: string;
  name: string;
  /** 2-20 of a-z0-9; the API key prefix is `<brand>_sk_live_`. */
  brand: string;
  /** ISO 4217, three capital letters. */
  currency: string;
  createdAt: Instant;
}

export interface ApiKeyRecord {
  id: string;
  locationId: string;
  /** SHA-256 of the full key (hex); the key itself is never stored. */
  hash: string;
  /** Display-safe start of the key, e.g. `acme_sk_live_AbCd`. */
  prefix: string;
  createdAt: Instant;
  revokedAt: Instant | null;
}
