import { instant, orNull, shape, value, type Domain } from '../kernel/shape';
import type { KeyMode } from './api-key';

export const locationShape = shape({
  id: value<string>(),
  name: value<string>(),
  /** 2-20 of a-z0-9 (`BRAND_PATTERN`); the API key prefix is `<brand>_sk_live_` (`<brand>_sk_test_` in a sandbox). */
  brand: value<string>(),
  /** ISO 4217, three capital letters. */
  currency: value<string>(),
  /**
   * A sandbox location is an ordinary location whose keys are test keys; only test keys
   * reach it and only test keys reach the till simulator. Fixed at creation.
   */
  sandbox: value<boolean>(),
  createdAt: instant(),
});
export interface Location extends Domain<typeof locationShape> {}

export const apiKeyRecordShape = shape({
  id: value<string>(),
  locationId: value<string>(),
  /** SHA-256 of the full key (hex); the key itself is never stored. */
  hash: value<string>(),
  /** Display-safe start of the key, e.g. `acme_sk_live_AbCd` or `acme_sk_test_AbCd` (`displayPrefix`). */
  prefix: value<string>(),
  createdAt: instant(),
  revokedAt: orNull(instant()),
});
export interface ApiKeyRecord extends Domain<typeof apiKeyRecordShape> {}

/** The mode of the keys a location's API keys carry. */
export const keyModeOf = (location: Pick<Location, 'sandbox'>): KeyMode =>
  location.sandbox ? 'test' : 'live';
