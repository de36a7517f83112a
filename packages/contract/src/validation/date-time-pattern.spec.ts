import fc from 'fast-check';
import { INVALID_DATE_TIMES, VALID_DATE_TIMES } from '../../test/date-time-cases';
import { buildOpenApiDocument } from '../openapi/build-openapi-document';
import { DATE_TIME_INPUT_FORMAT, DATE_TIME_INPUT_PATTERN } from '../schemas/primitives';
import { createAjv } from './validator';

/**
 * The document publishes every request date-time as the named format `iso8601-date-time` and a
 * pattern, so that a tool enforcing the pattern accepts exactly what the service does. The
 * service's check is the format (the domain's `Instant.parse`, registered on the contract's
 * ajv); this proves the pattern agrees with it, ajv compiling the pattern as it does for the
 * service (with the `u` flag).
 */
const ajv = createAjv();
const service = ajv.compile({ type: 'string', format: DATE_TIME_INPUT_FORMAT });
const pattern = new RegExp(DATE_TIME_INPUT_PATTERN, 'u');
const byPattern = (text: string) => pattern.test(text);
const byService = (text: string) => service(text) === true;

/**
 * The one rule the pattern leaves to the format: the instant must lie in the years 0001-9999
 * once the offset is applied, which only an offset on the first day of year 1 or the last of
 * year 9999 can break. There the pattern is looser than the service, never stricter.
 */
const onTheRangeEdge = (text: string) => /^(?:0001-01-01|9999-12-31)T/.test(text) && !text.endsWith('Z');

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

describe('The published date-time pattern', () => {
  it.each(VALID_DATE_TIMES)(
    'When a date-time %s (%s) is checked, then the pattern accepts it too',
    (_, text) => {
      expect({ text, service: byService(text), pattern: byPattern(text) }).toEqual({
        text,
        service: true,
        pattern: true,
      });
    },
  );

  it.each(INVALID_DATE_TIMES.filter(([, value]) => typeof value === 'string'))(
    'When a date-time %s (%s) is checked, then the pattern refuses it too',
    (_, text) => {
      expect({ text, service: byService(String(text)), pattern: byPattern(String(text)) }).toEqual({
        text,
        service: false,
        pattern: false,
      });
    },
  );

  it.each([
    ['the first instant of year 1', '0001-01-01T00:00Z', true],
    ['year 1 with a negative offset', '0001-01-01T00:00-01:00', true],
    ['year 0', '0000-12-31T23:59Z', false],
    ['the last microsecond of year 9999', '9999-12-31T23:59:59.999999Z', true],
    ['the end of year 9999 with a positive offset', '9999-12-31T23:59+01:00', true],
    ['year 10000', '10000-01-01T00:00Z', false],
    ['a leap day of year 4', '0004-02-29T00:00Z', true],
    ['a leap day of year 400', '0400-02-29T00:00Z', true],
    ['the 29th of February of year 100', '0100-02-29T00:00Z', false],
    ['Arabic-Indic digits', '٢٠٢٦-11-21T19:00Z', false],
    ['a fraction of 30 digits', `2026-11-21T19:00:00.${'1'.repeat(30)}Z`, true],
    ['a fraction without seconds', '2026-11-21T19:00.5Z', false],
    ['a trailing newline', '2026-11-21T19:00Z\n', false],
  ])('When %s (%s) is checked, then both answer %s', (_, text, expected) => {
    expect({ service: byService(text), pattern: byPattern(text) }).toEqual({
      service: expected,
      pattern: expected,
    });
  });

  it.each([
    ['year 1 before its first instant in UTC', '0001-01-01T00:00+00:01'],
    ['year 1 an hour before its first instant in UTC', '0001-01-01T00:59:59.999+01:00'],
    ['year 9999 after its last instant in UTC', '9999-12-31T23:59-00:01'],
  ])(
    'When %s (%s) is checked, then only the service refuses it: the range is the one rule the pattern does not say',
    (_, text) => {
      expect({ service: byService(text), pattern: byPattern(text), edge: onTheRangeEdge(text) }).toEqual({
        service: false,
        pattern: true,
        edge: true,
      });
    },
  );

  it('When the end of February of every year 0000-9999 is checked, then both agree on each leap year and each common year', () => {
    const disagree: string[] = [];
    for (let year = 0; year <= 9999; year += 1) {
      for (const day of ['28', '29', '30']) {
        const text = `${pad(year, 4)}-02-${day}T12:00Z`;
        if (byPattern(text) !== byService(text)) disagree.push(text);
      }
    }
    expect(disagree).toEqual([]);
  });

  it.each([['0001'], ['2024'], ['2026'], ['9999']])(
    'When every month 00-13 and day 00-32 of year %s is checked, then both agree on each date',
    (year) => {
      const disagree: string[] = [];
      for (let month = 0; month <= 13; month += 1) {
        for (let day = 0; day <= 32; day += 1) {
          const text = `${year}-${pad(month)}-${pad(day)}T12:00Z`;
          if (byPattern(text) !== byService(text)) disagree.push(text);
        }
      }
      expect(disagree).toEqual([]);
    },
  );

  it('When every hour, minute, second and offset in and just out of range is checked, then both agree on each time', () => {
    const seconds = ['', ':00', ':59', ':60', ':5', ':00.0', ':59.999999999'];
    const offsets = ['Z', '+00:00', '-00:00', '+23:59', '-23:59', '+24:00', '-01:60', '+1:00', '+0100', 'z'];
    const disagree: string[] = [];
    for (let hour = 0; hour <= 25; hour += 1) {
      for (let minute = 0; minute <= 61; minute += 1) {
        for (const second of seconds) {
          for (const offset of offsets) {
            const text = `2026-06-15T${pad(hour)}:${pad(minute)}${second}${offset}`;
            if (byPattern(text) !== byService(text)) disagree.push(text);
          }
        }
      }
    }
    expect(disagree).toEqual([]);
  });

  it('When strings are built at random from the characters of date-times, then the pattern refuses nothing the service accepts, and accepts only what it accepts but on the range edge', () => {
    const piece = fc.constantFrom(
      ...'0123456789-:T.Z+ tz'.split(''),
      '2026-',
      '0001-01-01T',
      '9999-12-31T',
      '02-29T',
      '12:00',
      ':59',
      '+01:00',
      '-23:59',
      '.5',
    );
    const near = fc.array(piece, { maxLength: 14 }).map((pieces) => pieces.join(''));
    const wellFormed = fc
      .record({
        year: fc.integer({ min: 0, max: 9999 }),
        month: fc.integer({ min: 0, max: 13 }),
        day: fc.integer({ min: 0, max: 32 }),
        hour: fc.integer({ min: 0, max: 24 }),
        minute: fc.integer({ min: 0, max: 60 }),
        second: fc.option(fc.integer({ min: 0, max: 60 }), { nil: undefined }),
        offset: fc.option(fc.integer({ min: -1500, max: 1500 }), { nil: undefined }),
      })
      .map(({ year, month, day, hour, minute, second, offset }) => {
        const zone =
          offset === undefined
            ? 'Z'
            : `${offset < 0 ? '-' : '+'}${pad(Math.trunc(Math.abs(offset) / 60))}:${pad(Math.abs(offset) % 60)}`;
        const secs = second === undefined ? '' : `:${pad(second)}`;
        return `${pad(year, 4)}-${pad(month)}-${pad(day)}T${pad(hour)}:${pad(minute)}${secs}${zone}`;
      });
    fc.assert(
      fc.property(fc.oneof(near, wellFormed), (text) => {
        const service = byService(text);
        const published = byPattern(text);
        return service ? published : !published || onTheRangeEdge(text);
      }),
      { numRuns: 20_000 },
    );
  });

  it('When the document publishes a request date-time, then it is this format and this pattern, and no request field is RFC 3339 date-time', () => {
    const doc = buildOpenApiDocument() as Record<string, any>;
    const schemas = doc.components.schemas;
    const listing = doc.paths['/api/provider/v1/reservations'].get.parameters as {
      name: string;
      schema: any;
    }[];
    const published = [
      schemas.ReservationRequest.properties.startsAt,
      schemas.ReservationRequest.properties.endsAt,
      schemas.GuestRequest.properties.memberSince,
      schemas.RecentVisitRequest.properties.occurredAt,
      schemas.RecoverRequest.properties.since,
      listing.find((p) => p.name === 'from')!.schema,
      listing.find((p) => p.name === 'to')!.schema,
    ];
    for (const schema of published) {
      expect(schema).toMatchObject({ format: DATE_TIME_INPUT_FORMAT, pattern: DATE_TIME_INPUT_PATTERN });
      expect(schema.description).toContain('iso8601-date-time');
    }
    const requestNames = Object.keys(schemas).filter((name) => name.endsWith('Request'));
    const rfc3339 = requestNames.filter((name) =>
      JSON.stringify(schemas[name]).includes('"format":"date-time"'),
    );
    expect(rfc3339).toEqual([]);
  });
});
