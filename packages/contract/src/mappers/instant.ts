import { Instant, type InstantText } from '@pis/domain';

/** Parses a date-time the schema has already accepted; anything else is a programming error. */
export function toInstant(text: string): Instant {
  const instant = Instant.parse(text);
  if (instant === null) throw new Error(`date-time reached a mapper unvalidated: ${JSON.stringify(text)}`);
  return instant;
}

export const toNullableIso = (instant: Instant | null): string | null =>
  instant === null ? null : instant.toIso();

/** How the wire writes instants: UTC with milliseconds (docs/reference/limits-and-formats.md#date-times); any valid date-time reads. */
export const WIRE_INSTANTS: InstantText = { write: (instant) => instant.toIso(), read: toInstant };
