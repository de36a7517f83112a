import { Instant, type Clock } from '../../src';

export const DEFAULT_TEST_NOW = '2026-11-21T18:00:00.000Z';

/** A clock that stands still until the test moves it. */
export class ManualClock implements Clock {
  private current: Instant;

  constructor(start: Instant | string = DEFAULT_TEST_NOW) {
    this.current = typeof start === 'string' ? parseOrThrow(start) : start;
  }

  now(): Instant {
    return this.current;
  }

  /** Moves the clock forward by whole milliseconds (negative values move it back). */
  advance(ms: number): Instant {
    this.current = this.current.plusMicros(BigInt(Math.trunc(ms)) * 1000n);
    return this.current;
  }

  advanceMicros(micros: bigint): Instant {
    this.current = this.current.plusMicros(micros);
    return this.current;
  }

  set(at: Instant | string): void {
    this.current = typeof at === 'string' ? parseOrThrow(at) : at;
  }
}

/** A clock that always answers the same instant. */
export function fixedClock(at: Instant | string = DEFAULT_TEST_NOW): Clock {
  const instant = typeof at === 'string' ? parseOrThrow(at) : at;
  return { now: () => instant };
}

function parseOrThrow(text: string): Instant {
  const instant = Instant.parse(text);
  if (instant === null) throw new Error(`not a date-time: ${text}`);
  return instant;
}
