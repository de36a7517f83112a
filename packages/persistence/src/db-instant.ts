import { Instant } from '@pis/domain';

/**
 * `timestamptz` text as PostgreSQL renders it in a TimeZone=UTC session
 * (`2026-11-21 19:00:00.123456+00`), or ISO 8601 as JSON holds it, to an Instant with
 * every microsecond. Anything else is a broken invariant.
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
 * The common case without regular expressions: `YYYY-MM-DD HH:MM:SS[.f...]+00`, what a
 * TimeZone=UTC session renders (listing a window reads eight or so per reservation).
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
