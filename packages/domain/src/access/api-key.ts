/**
 * The one definition of an API key's shape: `<brand>_sk_<mode>_` and 32 or more base62
 * characters (the service issues 40 from a CSPRNG), the mode `live` for a live location and
 * `test` for a sandbox one. The contract's JSON Schema patterns, the domain's checks and the
 * key factories all read it from here.
 */

/** `live` keys reach live locations, `test` keys sandbox locations; the mode is written in the key. */
export type KeyMode = 'live' | 'test';

/** A brand: 2-20 of a-z0-9. */
export const BRAND_PATTERN = '[a-z0-9]{2,20}';
const SECRET_PATTERN = '[A-Za-z0-9]{32,}';
/** A whole key of either mode, anchored; usable as a JSON Schema `pattern`. */
export const API_KEY_PATTERN = `^${BRAND_PATTERN}_sk_(live|test)_${SECRET_PATTERN}$`;
export const API_KEY_SECRET_LENGTH = 40;

const API_KEY = new RegExp(API_KEY_PATTERN);

export const isApiKeyShaped = (key: string): boolean => API_KEY.test(key);

/** The mode written in a key of the right shape; null for anything else. */
export const keyModeOfKey = (key: string): KeyMode | null => (API_KEY.exec(key)?.[1] as KeyMode) ?? null;

export const apiKeyPrefix = (brand: string, mode: KeyMode): string => `${brand}_sk_${mode}_`;

/** Enough of a key to recognise it in a list, useless to call with. */
export function displayPrefix(key: string): string {
  const mode = /_sk_(live|test)_/.exec(key);
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

/** A new key of `brand` and `mode`, its secret drawn from `randomBytes` (a CSPRNG). */
export const newApiKey = (brand: string, mode: KeyMode, randomBytes: (count: number) => Uint8Array): string =>
  `${apiKeyPrefix(brand, mode)}${base62(API_KEY_SECRET_LENGTH, randomBytes)}`;
