/**
 * An amount in minor units (cents) of an ISO 4217 currency, as the operator reads it:
 * `formatMinor(1250, 'EUR')` is "€12.50", `formatMinor(1250, 'JPY')` "¥1,250".
 */
export function formatMinor(amountMinor: number, currency: string, locale = 'en'): string {
  const format = new Intl.NumberFormat(locale, { style: 'currency', currency });
  const digits = format.resolvedOptions().maximumFractionDigits ?? 2;
  return format.format(amountMinor / 10 ** digits);
}
