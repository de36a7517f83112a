import { displayPrefix } from './api-key';

describe('displayPrefix', () => {
  it.each([
    ['acme_sk_live_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789', 'acme_sk_live_AbCd'],
    ['x9_sk_live_0123456789abcdefghijklmnopqrstuv', 'x9_sk_live_0123'],
    ['acme_sk_test_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789', 'acme_sk_test_AbCd'],
  ])('When key %s is listed, then only %s of it is shown', (key, prefix) => {
    expect(displayPrefix(key)).toBe(prefix);
    expect(key.length - prefix.length).toBeGreaterThanOrEqual(28);
  });
});
