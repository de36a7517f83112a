import { Instant } from '@pis/domain';

/**
 * `timestamptz` text in UTC as the connections' type parsers hand it over
 * (`2026-11-21 19:00:00.123456+00`, see `utcTimestampText`), or ISO 8601 as JSON holds it,
 * to an Instant with every microsecond. Anything else is a broken invariant.
 */
export function instantFromDb(text: string): Instant {
  const fast = utcText(text);
  if (fast !== null) return fast;
  const iso = DB_TIMESTAMP.test(text) ? text.replace(' ', 'T').replace(/([+-]\d{2})$/, '$1:00') : text;
  const instant = Instant.parse(iso);
  if (instant === null) throw new Error(`unreadable timestamp from the database: ${text}`);
  return instant;
}

export function nullableInstantFromDb(text: string | null): Instant | null {
  return text === null ? null : instantFromDb(text);
}

/** What a statement parameter of a `timestamptz` column carries: UTC, microseconds. */
export function instantToDb(instant: Instant): string {
  return instant.toIsoMicros();
}

export function nullableInstantToDb(instant: Instant | null): string | null {
  return instant === null ? null : instantToDb(instant);
}

const DB_TIMESTAMP = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(\.\d+)?[+-]\d{2}(:\d{2})?$/;

/**
 * The common case without regular expressions: `YYYY-MM-DD HH:MM:SS[.f...]+00`, what
 * `utcTimestampText` answers (listing a window reads eight or so per reservation).
 * null for anything else, which the general path then reads.
 */
function utcText(text: string): Instant | null {
  const n = text.length;
  if (
    n < 22 ||
    text.charCodeAt(10) !== 32 ||
    text.charCodeAt(n - 3) !== 43 ||
    text[n - 2] !== '0' ||
    text[n - 1] !== '0'
  ) {
    return null;
  }
  const year = digits(text, 0, 4);
  const month = digits(text, 5, 2);
  const day = digits(text, 8, 2);
  const hour = digits(text, 11, 2);
  const minute = digits(text, 14, 2);
  const second = digits(text, 17, 2);
  if (year < 100 || month < 0 || day < 0 || hour < 0 || minute < 0 || second < 0) return null;
  let ms = 0;
  let us = 0;
  if (n > 22) {
    if (text.charCodeAt(19) !== 46) return null;
    const fraction = (text.slice(20, n - 3) + '000000').slice(0, 6);
    ms = digits(fraction, 0, 3);
    us = digits(fraction, 3, 3);
    if (ms < 0 || us < 0) return null;
  }
  return Instant.fromEpochMillisAndMicros(Date.UTC(year, month - 1, day, hour, minute, second) + ms, us);
}

/** The decimal number of `length` digits at `at`, or -1 when one of them is not a digit. */
function digits(text: string, at: number, length: number): number {
  let value = 0;
  for (let i = at; i < at + length; i++) {
    const d = text.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return -1;
    value = value * 10 + d;
  }
  return value;
}

/** PostgreSQL's `timestamptz` output with DateStyle ISO, in whatever TimeZone the session runs. */
const PG_TIMESTAMPTZ =
  /^(\d{4,})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})(\.\d{1,6})?([+-])(\d{2})(?::(\d{2}))?(?::(\d{2}))?( BC)?$/;

/**
 * `timestamptz` text as a session in any TimeZone renders it (`2026-11-21 20:45:00.5+05:45`,
 * historic offsets with seconds, ` BC`), rewritten in UTC with the same fraction
 * (`2026-11-21 15:00:00.5+00`). Behind a transaction pooler no session option can pin the
 * TimeZone, so the type parsers make every row independent of it (decision 0120). Text
 * already in UTC (the server's usual TimeZone) is answered as it is, without parsing.
 */
export function utcTimestampText(text: string): string {
  const n = text.length;
  if (n >= 22 && text.charCodeAt(n - 3) === 43 && text[n - 2] === '0' && text[n - 1] === '0') return text;
  const m = PG_TIMESTAMPTZ.exec(text);
  if (m === null) return text;
  const [, y, mo, d, h, mi, s, fraction = '', sign, oh, om = '0', os = '0', bc] = m as unknown as string[];
  const offsetSeconds = (sign === '-' ? -1 : 1) * (Number(oh) * 3600 + Number(om) * 60 + Number(os));
  const local = new Date(0);
  local.setUTCFullYear(bc ? 1 - Number(y) : Number(y), Number(mo) - 1, Number(d));
  local.setUTCHours(Number(h), Number(mi), Number(s) - offsetSeconds, 0);
  const year = local.getUTCFullYear();
  if (year < 1 || year > 9999) return text;
  const pad = (value: number) => String(value).padStart(2, '0');
  return (
    `${String(year).padStart(4, '0')}-${pad(local.getUTCMonth() + 1)}-${pad(local.getUTCDate())} ` +
    `${pad(local.getUTCHours())}:${pad(local.getUTCMinutes())}:${pad(local.getUTCSeconds())}${fraction}+00`
  );
}
