/**
 * `Retry-After` as milliseconds from `now`: either delay-seconds or an HTTP date
 * (RFC 9110 section 10.2.3). null when absent or unreadable; a date in the past is 0.
 */
export function parseRetryAfter(value: string | string[] | undefined, now: number): number | null {
  const text = (Array.isArray(value) ? value[0] : value)?.trim();
  if (!text) return null;
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  // HTTP dates always name the weekday and say GMT; Date.parse alone accepts far more.
  if (!/^[A-Za-z]{3},? /.test(text) && !/GMT$/.test(text)) return null;
  const at = Date.parse(text);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}
