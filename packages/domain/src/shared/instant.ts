/**
 * A point in time with microsecond precision (what PostgreSQL `timestamptz` keeps).
 * Digits beyond the microsecond are truncated, never rounded, so two writes that differ
 * only below a microsecond compare equal.
 */
export class Instant {
  private constructor(readonly epochMicros: bigint) {}

  static fromEpochMicros(micros: bigint): Instant {
    return new Instant(micros);
  }

  /**
   * Whether an instant lies in years 0001-9999 in UTC: what ISO 8601's four-digit years and
   * a PostgreSQL `timestamptz` can both hold. Inputs outside it are refused at the edge.
   */
  static isRepresentable(micros: bigint): boolean {
    return micros >= MIN_MICROS && micros <= MAX_MICROS;
  }

  static fromEpochMillis(millis: number): Instant {
    return new Instant(BigInt(Math.trunc(millis)) * 1000n);
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
    const base = new Date(0);
    base.setUTCFullYear(year, month - 1, day);
    base.setUTCHours(hour, minute, second, 0);
    const micros = frac === undefined ? 0n : BigInt((frac + '000000').slice(0, 6));
    const utc = BigInt(base.getTime()) * 1000n + micros - BigInt(offsetMinutes) * 60_000_000n;
    // The offset can carry a date of year 0001 or 9999 out of the representable range.
    return Instant.isRepresentable(utc) ? new Instant(utc) : null;
  }

  compare(other: Instant): -1 | 0 | 1 {
    return this.epochMicros < other.epochMicros ? -1 : this.epochMicros > other.epochMicros ? 1 : 0;
  }

  isAfter(other: Instant): boolean {
    return this.epochMicros > other.epochMicros;
  }

  equals(other: Instant): boolean {
    return this.epochMicros === other.epochMicros;
  }

  plusMicros(micros: bigint): Instant {
    return new Instant(this.epochMicros + micros);
  }

  /** Floor to milliseconds (toward negative infinity, also before 1970). */
  epochMillis(): number {
    const q = this.epochMicros / 1000n;
    return Number(this.epochMicros < 0n && q * 1000n !== this.epochMicros ? q - 1n : q);
  }

  toDate(): Date {
    return new Date(this.epochMillis());
  }

  /** The wire form: UTC, `Z`, millisecond precision, e.g. `2026-11-21T19:00:00.000Z`. */
  toIso(): string {
    return this.toDate().toISOString();
  }

  /** Full microsecond precision in UTC, e.g. `2026-11-21T19:00:00.123456Z` (for storage). */
  toIsoMicros(): string {
    const iso = this.toIso();
    const micros = ((this.epochMicros % 1000n) + 1000n) % 1000n;
    return `${iso.slice(0, 23)}${micros.toString().padStart(3, '0')}Z`;
  }

  toJSON(): string {
    return this.toIso();
  }
}

/** 0001-01-01T00:00:00Z and 9999-12-31T23:59:59.999999Z. */
const MIN_MICROS = -62_135_596_800_000_000n;
const MAX_MICROS = 253_402_300_799_999_999n;

const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?(Z|[+-]\d{2}:\d{2})$/;

function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}
