import { formatMinor } from './money';

describe('formatMinor', () => {
  it.each([
    [1250, 'EUR', '€12.50'],
    [5, 'GBP', '£0.05'],
    [1250, 'JPY', '¥1,250'],
    [1234, 'KWD', 'KWD 1.234'],
    [-300, 'USD', '-$3.00'],
  ])('When %i minor units of %s are shown, then "%s"', (minor, currency, shown) => {
    expect(formatMinor(minor, currency).replace(/\u00a0/g, ' ')).toBe(shown);
  });
});
