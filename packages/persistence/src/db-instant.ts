import { Instant } from '@pis/domain';

/**
 * `timestamptz` text as PostgreSQL renders it in a TimeZone=UTC session
 * (`2026-11-21 19:00:00.123456+00`), or ISO 8601 as JSON holds it, to an Instant with
 * every microsecond. Anything else is a broken invariant.
 */
export function instantFromDb(text: string): Instant {
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
