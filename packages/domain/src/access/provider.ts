import { instant, orNull, shape, value, type Domain } from '../kernel/shape';
import type { Instant } from '../kernel/instant';
import type { KeyMode } from './api-key';

/**
 * A provider: a booking system that works for venues. One it works for through a provider
 * key (`<brand>_pk_<mode>_...`) names the location per request and reaches the locations it is
 * connected to. Every location also has a provider of its own (`ownProviderId`), created with
 * it, whose keys are the location keys (`<brand>_sk_<mode>_...`), so that every reservation
 * belongs to exactly one provider.
 */
export const providerShape = shape({
  id: value<string>(),
  /** 1-120 characters. */
  name: value<string>(),
  /** 2-20 of a-z0-9 (`BRAND_PATTERN`): its keys start `<brand>_pk_live_` or `<brand>_pk_test_`. */
  brand: value<string>(),
  createdAt: instant(),
});
export interface Provider extends Domain<typeof providerShape> {}

/**
 * The id of a location's own provider is the location's id: a caller that knows the location
 * (every location key, every earlier record) names its provider without a lookup, and the
 * migration that gave existing locations their providers needed no mapping table.
 */
export const ownProviderId = (locationId: string): string => locationId;

/** A provider key as the service keeps it: its hash and a display prefix, never the key. */
export const providerKeyRecordShape = shape({
  id: value<string>(),
  providerId: value<string>(),
  /** SHA-256 of the full key (hex). */
  hash: value<string>(),
  /** e.g. `acme_pk_live_AbCd` (`displayPrefix`). */
  prefix: value<string>(),
  mode: value<KeyMode>(),
  createdAt: instant(),
  revokedAt: orNull(instant()),
});
export interface ProviderKeyRecord extends Domain<typeof providerKeyRecordShape> {}

/** Keyset position in the operator's newest-first listings (providers, locations). */
export interface NewestFirstCursor {
  createdAt: Instant;
  id: string;
}
