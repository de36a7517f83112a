/**
 * The one definition of an API key's shape: `<brand>_<kind>_<mode>_` and 32 or more base62
 * characters (the service issues 40 from a CSPRNG). The kind is `sk` for a location key
 * (it names one location) and `pk` for a provider key (it names a provider, which picks the
 * location per request); the mode is `live` or `test`. The contract's JSON Schema patterns,
 * the domain's checks and the key factories all read it from here.
 */

/** `live` keys reach live locations, `test` keys sandbox locations; the mode is written in the key. */
export type KeyMode = 'live' | 'test';

/** `location`: `_sk_`, pinned to one location; `provider`: `_pk_`, any location the provider is connected to. */
export type KeyKind = 'location' | 'provider';

/** A brand: 2-20 of a-z0-9. */
export const BRAND_PATTERN = '[a-z0-9]{2,20}';
const SECRET_PATTERN = '[A-Za-z0-9]{32,}';
/** A whole location key of either mode, anchored; usable as a JSON Schema `pattern`. */
export const API_KEY_PATTERN = `^${BRAND_PATTERN}_sk_(live|test)_${SECRET_PATTERN}$`;
/** A whole provider key of either mode, anchored; usable as a JSON Schema `pattern`. */
export const PROVIDER_KEY_PATTERN = `^${BRAND_PATTERN}_pk_(live|test)_${SECRET_PATTERN}$`;
export const API_KEY_SECRET_LENGTH = 40;

const ANY_KEY = new RegExp(`^${BRAND_PATTERN}_(sk|pk)_(live|test)_${SECRET_PATTERN}$`);
const KIND_OF_TAG = { sk: 'location', pk: 'provider' } as const;
const TAG_OF_KIND = { location: 'sk', provider: 'pk' } as const;

/** Whether `key` is shaped like a location key. */
export const isApiKeyShaped = (key: string): boolean => keyShapeOf(key)?.kind === 'location';

/** The kind and mode written in a key of either kind; null for anything not shaped like a key. */
export function keyShapeOf(key: string): { kind: KeyKind; mode: KeyMode } | null {
  const match = ANY_KEY.exec(key);
  return match ? { kind: KIND_OF_TAG[match[1] as 'sk' | 'pk'], mode: match[2] as KeyMode } : null;
}

/** The mode written in a location key of the right shape; null for anything else. */
export const keyModeOfKey = (key: string): KeyMode | null => {
  const shape = keyShapeOf(key);
  return shape?.kind === 'location' ? shape.mode : null;
};

export const apiKeyPrefix = (brand: string, mode: KeyMode, kind: KeyKind = 'location'): string =>
  `${brand}_${TAG_OF_KIND[kind]}_${mode}_`;

/** Enough of a key to recognise it in a list, useless to call with. */
export function displayPrefix(key: string): string {
  const mode = /_[sp]k_(live|test)_/.exec(key);
  return mode ? key.slice(0, mode.index + mode[0].length + 4) : key.slice(0, 4);
}

const BASE62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/**
 * Unbiased base62 of `length` characters from a source of random bytes (rejection
 * sampling: bytes >= 248 are dropped).
 */
export function base62(length: number, randomBytes: (count: number) => Uint8Array): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248 && out.length < length) out += BASE62[byte % 62];
    }
  }
  return out;
}

/** A new key of `brand`, `mode` and `kind` (default: a location key), its secret drawn from `randomBytes` (a CSPRNG). */
export const newApiKey = (
  brand: string,
  mode: KeyMode,
  randomBytes: (count: number) => Uint8Array,
  kind: KeyKind = 'location',
): string => `${apiKeyPrefix(brand, mode, kind)}${base62(API_KEY_SECRET_LENGTH, randomBytes)}`;
