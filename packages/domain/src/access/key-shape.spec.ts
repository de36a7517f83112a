import {
  displayPrefix,
  isApiKeyShaped,
  keyModeOfKey,
  keyShapeOf,
  newApiKey,
  PROVIDER_KEY_PATTERN,
} from './api-key';

const counting = (count: number) => Uint8Array.from({ length: count }, (_, i) => i % 256);

describe('Provider keys and location keys', () => {
  it.each(['live', 'test'] as const)(
    'When a %s provider key is made, then it reads <brand>_pk_<mode>_ and 40 base62, and its shape says provider and the mode',
    (mode) => {
      const key = newApiKey('booking', mode, counting, 'provider');

      expect(key).toMatch(new RegExp(`^booking_pk_${mode}_[A-Za-z0-9]{40}$`));
      expect(new RegExp(PROVIDER_KEY_PATTERN).test(key)).toBe(true);
      expect(keyShapeOf(key)).toEqual({ kind: 'provider', mode });
      expect(displayPrefix(key)).toBe(`booking_pk_${mode}_${key.slice(-40, -36)}`);
    },
  );

  it('When a provider key is asked for a location key’s mode, then it is not a location key', () => {
    const key = newApiKey('booking', 'live', counting, 'provider');

    expect(isApiKeyShaped(key)).toBe(false);
    expect(keyModeOfKey(key)).toBeNull();
  });

  it.each([
    'booking_xk_live_' + 'A'.repeat(40),
    'booking_pk_prod_' + 'A'.repeat(40),
    'booking_pk_live_' + 'A'.repeat(31),
    'B_pk_live_' + 'A'.repeat(40),
    '',
  ])('When %j is read, then it has no key shape', (text) => {
    expect(keyShapeOf(text)).toBeNull();
  });
});
