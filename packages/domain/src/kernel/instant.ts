/**
 * A point in time with microsecond precision (what PostgreSQL `timestamptz` keeps).
 * Digits beyond the microsecond are truncated, never rounded, so two writes that differ
 * only below a microsecond compare equal.
 *
 * Held as whole epoch milliseconds (floored, also before 1970) plus the microseconds
 * within that millisecond (0-999): two plain numbers, so parsing, comparing and rendering
 * need no BigInt arithmetic (they run for every field of every reservation listed).
 */
export class Instant {
  private constructor(
    private readonly ms: number,
    private readonly us: number,
  ) {}

  /** Epoch microseconds, exactly. */
  get epochMicros(): bigint {
    return BigInt(this.ms) * 1000n + BigInt(this.us);
  }

  static fromEpochMicros(micros: bigint): Instant {
    const us = ((micros % 1000n) + 1000n) % 1000n;
    return new Instant(Number((micros - us) / 1000n), Number(us));
  }

  /** An instant from whole epoch milliseconds and the microseconds (0-999) within the last one. */
  static fromEpochMillisAndMicros(millis: number, micros: number): Instant {
    return new Instant(millis, micros);
  }

  /**
   * Whether an instant lies in years 0001-9999 in UTC: what ISO 8601's four-digit years and
   * a PostgreSQL `timestamptz` can both hold. Inputs outside it are refused at the edge.
   */
  static isRepresentable(micros: bigint): boolean {
    return micros >= MIN_MICROS && micros <= MAX_MICROS;
  }

  static fromEpochMillis(millis: number): Instant {
    return new Instant(Math.trunc(millis), 0);
  }

  static fromDate(date: Date): Instant {
    return Instant.fromEpochMillis(date.getTime());
  }

  /** Parses an ISO 8601 date-time with a mandatory offset; null when it is not one. */
  static parse(text: string): Instant | null {
    const m = DATE_TIME.exec(text);
    if (!m) return null;
    const [, ys, mos, ds, hs, mis, ss, frac, offset] = m as unknown as string[];
    const year = Number(ys);
    const month = Number(mos);
    const day = Number(ds);
    const hour = Number(hs);
    const minute = Number(mis);
    const second = ss === undefined ? 0 : Number(ss);
    // Year 0000 (1 BC) is valid ISO 8601 but not a PostgreSQL timestamptz: refused.
    if (year < 1) return null;
    if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
    if (hour > 23 || minute > 59 || second > 59) return null;
    let offsetMinutes = 0;
    if (offset !== 'Z') {
      const oh = Number(offset!.slice(1, 3));
      const om = Number(offset!.slice(4, 6));
      if (oh > 23 || om > 59) return null;
      offsetMinutes = (oh * 60 + om) * (offset!.startsWith('-') ? -1 : 1);
    }
    const digits = frac === undefined ? '000000' : (frac + '000000').slice(0, 6);
    const ms =
      utcMillis(year, month, day, hour, minute, second) + Number(digits.slice(0, 3)) - offsetMinutes * 60_000;
    // The offset can carry a date of year 0001 or 9999 out of the representable range.
    if (ms < MIN_MS || ms > MAX_MS) return null;
    return new Instant(ms, Number(digits.slice(3)));
  }

  compare(other: Instant): -1 | 0 | 1 {
    if (this.ms !== other.ms) return this.ms < other.ms ? -1 : 1;
    return this.us < other.us ? -1 : this.us > other.us ? 1 : 0;
  }

  isAfter(other: Instant): boolean {
    return this.compare(other) === 1;
  }

  equals(other: Instant): boolean {
    return this.ms === other.ms && this.us === other.us;
  }

  plusMicros(micros: bigint): Instant {
    return Instant.fromEpochMicros(this.epochMicros + micros);
  }

  /** Floor to milliseconds (toward negative infinity, also before 1970). */
  epochMillis(): number {
    return this.ms;
  }

  toDate(): Date {
    return new Date(this.ms);
  }

  /** The wire form: UTC, `Z`, millisecond precision, e.g. `2026-11-21T19:00:00.000Z`. */
  toIso(): string {
    return isoString(this.ms);
  }

  /** Full microsecond precision in UTC, e.g. `2026-11-21T19:00:00.123456Z` (for storage). */
  toIsoMicros(): string {
    return `${this.toIso().slice(0, 23)}${String(this.us).padStart(3, '0')}Z`;
  }

  toJSON(): string {
    return this.toIso();
  }
}

const PAD2 = Array.from({ length: 100 }, (_, i) => String(i).padStart(2, '0'));
const DAY_MS = 86_400_000;

/**
 * What `new Date(ms).toISOString()` answers for years 0001-9999, computed with integer
 * arithmetic (civil-from-days, H. Hinnant) in less than half its time: a listed window
 * renders eight or so instants per reservation.
 */
function isoString(ms: number): string {
  const days = Math.floor(ms / DAY_MS);
  let rest = ms - days * DAY_MS;
  const hour = Math.floor(rest / 3_600_000);
  rest -= hour * 3_600_000;
  const minute = Math.floor(rest / 60_000);
  rest -= minute * 60_000;
  const second = Math.floor(rest / 1000);
  const milli = rest - second * 1000;
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const doe = z - era * 146_097;
  const yoe = Math.floor(
    (doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365,
  );
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  const year = yoe + era * 400 + (month <= 2 ? 1 : 0);
  const ms3 = milli < 10 ? `00${milli}` : milli < 100 ? `0${milli}` : `${milli}`;
  return `${PAD2[Math.floor(year / 100)]}${PAD2[year % 100]}-${PAD2[month]}-${PAD2[day]}T${PAD2[hour]}:${PAD2[minute]}:${PAD2[second]}.${ms3}Z`;
}

/** Epoch milliseconds of a UTC calendar time; `Date.UTC` alone maps years 0-99 to 1900-1999. */
function utcMillis(year: number, month: number, day: number, hour: number, minute: number, second: number) {
  const ms = Date.UTC(year, month - 1, day, hour, minute, second);
  if (year >= 100) return ms;
  const date = new Date(ms);
  date.setUTCFullYear(year);
  return date.getTime();
}

/** 0001-01-01T00:00:00Z and 9999-12-31T23:59:59.999999Z. */
const MIN_MICROS = -62_135_596_800_000_000n;
const MAX_MICROS = 253_402_300_799_999_999n;
const MIN_MS = -62_135_596_800_000;
const MAX_MS = 253_402_300_799_999;

const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?(Z|[+-]\d{2}:\d{2})$/;

function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}
