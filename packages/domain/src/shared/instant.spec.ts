import { Instant } from './instant';

describe('Instant.parse', () => {
  it.each([
    ['2026-11-21T19:00Z', '2026-11-21T19:00:00.000Z'],
    ['2026-11-21T19:00:05Z', '2026-11-21T19:00:05.000Z'],
    ['2026-11-21T19:00:05.1Z', '2026-11-21T19:00:05.100Z'],
    ['2026-11-21T20:00:00+01:00', '2026-11-21T19:00:00.000Z'],
    ['2026-11-21T18:30:00-00:30', '2026-11-21T19:00:00.000Z'],
    ['2026-11-22T18:59:00+23:59', '2026-11-21T19:00:00.000Z'],
    ['2024-02-29T00:00:00Z', '2024-02-29T00:00:00.000Z'],
    ['2000-02-29T00:00:00Z', '2000-02-29T00:00:00.000Z'],
    ['1969-12-31T23:59:59.999999Z', '1969-12-31T23:59:59.999Z'],
  ])('When %s is parsed, then it is the instant %s', (text, iso) => {
    expect(Instant.parse(text)?.toIso()).toBe(iso);
  });

  it.each([
    '2023-02-29T00:00:00Z',
    '0000-01-01T00:00:00Z',
    '1900-02-29T00:00:00Z',
    '2026-04-31T00:00:00Z',
    '2026-13-01T00:00:00Z',
    '2026-00-01T00:00:00Z',
    '2026-11-21T24:00:00Z',
    '2026-11-21T23:60:00Z',
    '2026-11-21T23:59:60Z',
    '2026-11-21T19:00:00',
    '2026-11-21T19:00:00+24:00',
    '2026-11-21T19:00:00+01:60',
    '2026-11-21T19:00:00+0100',
    '2026-11-21 19:00:00Z',
    '2026-11-21t19:00:00z',
    '2026-11-21',
    '2026-11-21T19Z',
    '2026-11-21T19:00:00.Z',
    ' 2026-11-21T19:00:00Z',
    '',
  ])('When %j is parsed, then it is refused', (text) => {
    expect(Instant.parse(text)).toBeNull();
  });

  it('When a fraction has more than six digits, then it is truncated to the microsecond, not rounded', () => {
    const a = Instant.parse('2026-11-21T19:00:00.1234569Z')!;
    const b = Instant.parse('2026-11-21T19:00:00.123456Z')!;
    expect(a.equals(b)).toBe(true);
    expect(a.toIsoMicros()).toBe('2026-11-21T19:00:00.123456Z');
  });

  it('When two instants differ by one microsecond, then they compare by it', () => {
    const a = Instant.parse('2026-11-21T19:00:00.000001Z')!;
    const b = Instant.parse('2026-11-21T19:00:00.000002Z')!;
    expect(a.compare(b)).toBe(-1);
    expect(b.isAfter(a)).toBe(true);
    expect(a.compare(a)).toBe(0);
  });

  it('When an instant before 1970 has a sub-millisecond part, then it renders floored in UTC', () => {
    const a = Instant.parse('1969-12-31T23:59:59.9995Z')!;
    expect(a.toIso()).toBe('1969-12-31T23:59:59.999Z');
    expect(a.toIsoMicros()).toBe('1969-12-31T23:59:59.999500Z');
    expect(Instant.fromEpochMicros(a.epochMicros).equals(a)).toBe(true);
  });

  it('When a Date round-trips, then it keeps its milliseconds', () => {
    const date = new Date('2026-11-21T19:00:00.123Z');
    expect(Instant.fromDate(date).toDate().getTime()).toBe(date.getTime());
    expect(JSON.stringify({ at: Instant.fromDate(date) })).toBe('{"at":"2026-11-21T19:00:00.123Z"}');
  });
});
