import { Instant } from '../../src';

/** Parses a date-time a test writes by hand; a typo fails loudly instead of yielding null. */
export function at(text: string): Instant {
  const instant = Instant.parse(text);
  if (instant === null) throw new Error(`not a date-time: ${text}`);
  return instant;
}

/** `base` moved by whole milliseconds (negative moves back). */
export function plusMillis(base: Instant, millis: number): Instant {
  return base.plusMicros(BigInt(millis) * 1000n);
}
