import fc from 'fast-check';
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
    ['2026-11-20T19:01:00-23:59', '2026-11-21T19:00:00.000Z'],
    ['2026-11-21T19:00:00+00:00', '2026-11-21T19:00:00.000Z'],
    ['2026-11-21T19:00:00-00:00', '2026-11-21T19:00:00.000Z'],
    ['2027-01-01T00:30:00+01:00', '2026-12-31T23:30:00.000Z'],
    ['2026-12-31T23:30:00-01:00', '2027-01-01T00:30:00.000Z'],
    ['2400-02-29T12:00:00Z', '2400-02-29T12:00:00.000Z'],
    ['1900-02-28T12:00:00Z', '1900-02-28T12:00:00.000Z'],
    ['0001-01-01T00:00:00Z', '0001-01-01T00:00:00.000Z'],
    ['0099-12-31T23:59:59Z', '0099-12-31T23:59:59.000Z'],
    ['9999-12-31T23:59:59.999999Z', '9999-12-31T23:59:59.999Z'],
    ['2026-04-30T00:00:00Z', '2026-04-30T00:00:00.000Z'],
  ])('When %s is parsed, then it is the instant %s', (text, iso) => {
    expect(Instant.parse(text)?.toIso()).toBe(iso);
  });

  it.each([
    '2023-02-29T00:00:00Z',
    '2100-02-29T00:00:00Z',
    '2026-02-30T00:00:00Z',
    '2026-11-31T00:00:00Z',
    '2026-11-00T00:00:00Z',
    '2026-11-21T19:00.5Z',
    '2026-11-21T9:00:00Z',
    '2026-11-21T19:00:00+1:00',
    '2026-11-21T19:00:00+01',
    '2026-11-21T19:00:00Z ',
    '+2026-11-21T19:00:00Z',
    '-0001-01-01T00:00:00Z',
    '0000-01-01T00:00:00Z',
    '0001-01-01T00:00+00:01',
    '9999-12-31T23:59-00:01',
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

  it.each([
    ['.1', '100000'],
    ['.12', '120000'],
    ['.123', '123000'],
    ['.1234', '123400'],
    ['.12345', '123450'],
    ['.123456', '123456'],
    ['.1234567', '123456'],
    ['.123456789', '123456'],
    ['.999999999999', '999999'],
    ['.000000999', '000000'],
  ])('When the fraction is %s, then the microseconds are %s', (fraction, micros) => {
    expect(Instant.parse(`2026-11-21T19:00:00${fraction}Z`)?.toIsoMicros()).toBe(
      `2026-11-21T19:00:00.${micros}Z`,
    );
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

describe('Instant arithmetic', () => {
  it('When micros are added, then the instant moves by exactly that many, across a day', () => {
    const a = Instant.parse('2026-11-21T23:59:59.999999Z')!;

    expect(a.plusMicros(1n).toIsoMicros()).toBe('2026-11-22T00:00:00.000000Z');
    expect(a.plusMicros(-86_400_000_000n).toIsoMicros()).toBe('2026-11-20T23:59:59.999999Z');
  });

  it.each([
    [1.9, 1000n],
    [-1.9, -1000n],
    [0, 0n],
  ])(
    'When %d epoch milliseconds are given, then the fraction is truncated to %s micros',
    (millis, micros) => {
      expect(Instant.fromEpochMillis(millis).epochMicros).toBe(micros);
    },
  );
});

describe('Instant.isRepresentable', () => {
  it.each([
    ['0001-01-01T00:00:00Z', true],
    ['9999-12-31T23:59:59.999999Z', true],
  ])('When the instant is %s, then it is representable', (text) => {
    expect(Instant.isRepresentable(Instant.parse(text)!.epochMicros)).toBe(true);
  });

  it('When an instant lies one microsecond outside years 0001-9999, then it is not representable', () => {
    expect(Instant.isRepresentable(Instant.parse('0001-01-01T00:00:00Z')!.epochMicros - 1n)).toBe(false);
    expect(Instant.isRepresentable(Instant.parse('9999-12-31T23:59:59.999999Z')!.epochMicros + 1n)).toBe(
      false,
    );
  });
});

describe('Instant.toIso', () => {
  it('When any representable instant is rendered, then it reads as Date#toISOString does', () => {
    const min = -62_135_596_800_000;
    const max = 253_402_300_799_999;
    fc.assert(
      fc.property(fc.integer({ min, max }), (ms) => {
        expect(Instant.fromEpochMillis(ms).toIso()).toBe(new Date(ms).toISOString());
      }),
      { numRuns: 20_000 },
    );
    for (const ms of [min, max, 0, -1, 951_782_400_000]) {
      expect(Instant.fromEpochMillis(ms).toIso()).toBe(new Date(ms).toISOString());
    }
  });
});
