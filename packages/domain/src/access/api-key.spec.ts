import {
  API_KEY_PATTERN,
  apiKeyPrefix,
  base62,
  displayPrefix,
  isApiKeyShaped,
  keyModeOfKey,
  newApiKey,
} from './api-key';

const counting = (count: number) => Uint8Array.from({ length: count }, (_, i) => i % 256);

describe('API key shape', () => {
  it.each([
    ['acme_sk_live_' + 'A'.repeat(32), true],
    ['x9_sk_live_' + 'aZ0'.repeat(20), true],
    ['acme_sk_live_' + 'A'.repeat(31), false],
    ['a_sk_live_' + 'A'.repeat(40), false],
    ['ACME_sk_live_' + 'A'.repeat(40), false],
    ['acme_sk_test_' + 'A'.repeat(40), true],
    ['acme_sk_prod_' + 'A'.repeat(40), false],
    ['acme_sk_live_' + 'A'.repeat(39) + '-', false],
  ])('When %s is checked, then it is shaped: %s', (key, shaped) => {
    expect(isApiKeyShaped(key)).toBe(shaped);
    expect(new RegExp(API_KEY_PATTERN).test(key)).toBe(shaped);
  });

  it.each(['live', 'test'] as const)(
    'When a %s key is made for a brand, then it starts with the brand and mode prefix, has the key shape and says its mode',
    (mode) => {
      const key = newApiKey('acme', mode, counting);
      expect(key.startsWith(apiKeyPrefix('acme', mode))).toBe(true);
      expect(key).toHaveLength(`acme_sk_${mode}_`.length + 40);
      expect(isApiKeyShaped(key)).toBe(true);
      expect(keyModeOfKey(key)).toBe(mode);
      expect(displayPrefix(key)).toBe(`acme_sk_${mode}_${key.slice(-40, -36)}`);
    },
  );

  it('When something not shaped like a key is asked its mode, then it has none', () => {
    expect(keyModeOfKey('acme_sk_live_short')).toBeNull();
  });

  it('When random bytes of 248 or more come, then they are dropped rather than bias the characters', () => {
    const bytes = [255, 248, 0, 61, 62, 247];
    let call = 0;
    const source = (count: number) => Uint8Array.from({ length: count }, () => bytes[call++ % bytes.length]!);
    expect(base62(4, source)).toBe('A9A9');
  });
});
