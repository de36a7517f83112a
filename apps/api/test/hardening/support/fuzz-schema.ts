/**
 * fast-check arbitraries from the contract's JSON Schemas, for the subset of JSON Schema the
 * contract uses (type with null, enum, min/maxLength, minimum/maximum/exclusiveMinimum,
 * pattern, the date-time formats, items/minItems/maxItems/uniqueItems, closed objects with
 * required and minProperties). No library fits: the one that maps JSON Schema to fast-check
 * is pre-1.0 and built on fast-check 1, and `date-time` here is the contract's own format
 * (offset required, seconds optional, any fraction digits), not RFC 3339's.
 *
 * `validOf` generates values the contract's validator accepts (fuzz-schema.spec.ts checks
 * that); `overrides` lets a suite steer a field towards values that also pass the domain's
 * checks (table ids of the location, a centre inside the canvas), so writes are accepted
 * often enough to test what an accepted write stores.
 */
import fc from 'fast-check';
import { DATE_TIME_INPUT_FORMAT } from '@pis/contract';

export interface Schema {
  type?: string | readonly string[];
  enum?: readonly unknown[];
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  pattern?: string;
  format?: string;
  items?: Schema;
  minItems?: number;
  maxItems?: number;
  uniqueItems?: boolean;
  properties?: Record<string, Schema>;
  required?: readonly string[];
  additionalProperties?: boolean;
  minProperties?: number;
  maxProperties?: number;
}

/** A JSON path as property names and array indexes. */
export type Path = readonly (string | number)[];

/** An arbitrary to use instead of the schema's own at `path` (property names only, indexes dropped). */
export type Overrides = (path: readonly string[], schema: Schema) => fc.Arbitrary<unknown> | undefined;

export const asSchema = (schema: unknown): Schema => schema as Schema;

export function typesOf(schema: Schema): string[] {
  if (schema.type === undefined) return [];
  return typeof schema.type === 'string' ? [schema.type] : [...schema.type];
}

/** Characters a text field may carry: mostly ASCII, some of the rest of Unicode, never U+0000. */
const storableChar: fc.Arbitrary<string> = fc.oneof(
  { weight: 8, arbitrary: fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 1 }) },
  {
    weight: 3,
    arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }).filter((c) => c !== '\u0000'),
  },
  {
    weight: 2,
    // Quotes, escapes, URL and SQL specials, invisible and bidi characters, an astral emoji.
    arbitrary: fc.constantFrom(
      '"',
      "'",
      '\\',
      '%',
      '/',
      '?',
      '#',
      '&',
      ';',
      '\u200b',
      '\ufeff',
      '\u202e',
      'é',
      'ß',
      '😀',
      '\u2028',
    ),
  },
);

/** A string of `min`-`max` code points (what ajv's length counts), the bounds themselves more often. */
export function textOf(min: number, max: number): fc.Arbitrary<string> {
  const exactly = (n: number) => fc.string({ unit: storableChar, minLength: n, maxLength: n });
  return fc.oneof(
    { weight: 6, arbitrary: fc.string({ unit: storableChar, minLength: min, maxLength: max }) },
    { weight: 1, arbitrary: exactly(min) },
    { weight: 1, arbitrary: exactly(max) },
  );
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');
const leap = (year: number) => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
const daysIn = (year: number, month: number) =>
  month === 2 ? (leap(year) ? 29 : 28) : [4, 6, 9, 11].includes(month) ? 30 : 31;

/** A date-time a request sends (`iso8601-date-time`) or a response renders (`date-time`). */
export const isDateTime = (schema: Schema): boolean =>
  schema.format === DATE_TIME_INPUT_FORMAT || schema.format === 'date-time';

/**
 * A date-time the contract accepts: offset `Z` or `±hh:mm` (up to ±23:59), seconds optional,
 * 0-9 fraction digits, calendar-valid (29 February of leap years). Mostly around now, so
 * list windows find them; sometimes the first and last representable years (with `Z` only,
 * since an offset may carry them out of years 0001-9999, which is refused).
 */
export const dateTimeText: fc.Arbitrary<string> = fc
  .record({
    year: fc.oneof(
      { weight: 8, arbitrary: fc.integer({ min: 2024, max: 2028 }) },
      { weight: 1, arbitrary: fc.integer({ min: 2, max: 9998 }) },
      { weight: 1, arbitrary: fc.constantFrom(1, 9999) },
    ),
    month: fc.integer({ min: 1, max: 12 }),
    day: fc.integer({ min: 1, max: 31 }),
    hour: fc.integer({ min: 0, max: 23 }),
    minute: fc.integer({ min: 0, max: 59 }),
    second: fc.option(fc.integer({ min: 0, max: 59 }), { nil: undefined }),
    fraction: fc.option(fc.stringMatching(/^\d{1,9}$/), { nil: undefined }),
    offset: fc.oneof(
      fc.constant('Z'),
      fc
        .record({
          sign: fc.constantFrom('+', '-'),
          h: fc.integer({ min: 0, max: 23 }),
          m: fc.integer({ min: 0, max: 59 }),
        })
        .map(({ sign, h, m }) => `${sign}${pad(h)}:${pad(m)}`),
    ),
  })
  .map(({ year, month, day, hour, minute, second, fraction, offset }) => {
    const d = Math.min(day, daysIn(year, month));
    const seconds =
      second === undefined ? '' : `:${pad(second)}${fraction === undefined ? '' : `.${fraction}`}`;
    const zone = year === 1 || year === 9999 ? 'Z' : offset;
    return `${pad(year, 4)}-${pad(month)}-${pad(d)}T${pad(hour)}:${pad(minute)}${seconds}${zone}`;
  });

function numberOf(schema: Schema, integer: boolean): fc.Arbitrary<number> {
  if (integer) {
    const min = schema.minimum ?? -2_147_483_648;
    const max = schema.maximum ?? 2_147_483_647;
    // fast-check already favours the bounds; small values make the domain's own checks pass more often.
    return fc.oneof(
      { weight: 3, arbitrary: fc.integer({ min, max: Math.min(max, min + 20) }) },
      fc.integer({ min, max }),
    );
  }
  const min = schema.exclusiveMinimum ?? schema.minimum ?? -1e9;
  const max = schema.exclusiveMaximum ?? schema.maximum ?? 1e9;
  return fc.double({
    min,
    max,
    minExcluded: schema.exclusiveMinimum !== undefined,
    maxExcluded: schema.exclusiveMaximum !== undefined,
    noNaN: true,
    noDefaultInfinity: true,
  });
}

/** Values of `schema` that the contract's validator accepts. */
export function validOf(
  schema: Schema,
  overrides?: Overrides,
  path: readonly string[] = [],
): fc.Arbitrary<unknown> {
  const steered = overrides?.(path, schema);
  if (steered) return steered;
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const types = typesOf(schema);
  const concrete = types.filter((t) => t !== 'null');
  if (types.includes('null') && concrete.length > 0) {
    return fc.oneof(
      { weight: 3, arbitrary: validOf({ ...schema, type: concrete }, overrides, path) },
      { weight: 1, arbitrary: fc.constant(null) },
    );
  }
  if (concrete.length !== 1)
    throw new Error(
      `fuzz-schema: no generator for type ${JSON.stringify(schema.type)} at /${path.join('/')}`,
    );
  switch (concrete[0]) {
    case 'string':
      if (isDateTime(schema)) return dateTimeText;
      if (schema.pattern !== undefined) return fc.stringMatching(new RegExp(schema.pattern));
      return textOf(schema.minLength ?? 0, schema.maxLength ?? Math.max(schema.minLength ?? 0, 40));
    case 'integer':
      return numberOf(schema, true);
    case 'number':
      return numberOf(schema, false);
    case 'boolean':
      return fc.boolean();
    case 'array': {
      const items = validOf(schema.items ?? {}, overrides, [...path, '*']);
      const constraints = { minLength: schema.minItems ?? 0, maxLength: Math.min(schema.maxItems ?? 5, 5) };
      return schema.uniqueItems
        ? fc.uniqueArray(items, { ...constraints, selector: (v) => JSON.stringify(v) })
        : fc.array(items, constraints);
    }
    case 'object': {
      const properties = schema.properties ?? {};
      const record = fc.record(
        Object.fromEntries(
          Object.entries(properties).map(([key, sub]) => [key, validOf(sub, overrides, [...path, key])]),
        ),
        { requiredKeys: [...(schema.required ?? [])] },
      );
      const min = schema.minProperties ?? 0;
      const max = schema.maxProperties ?? Infinity;
      return min > 0 || max < Infinity
        ? record.filter((v) => Object.keys(v).length >= min && Object.keys(v).length <= max)
        : record;
    }
    default:
      throw new Error(`fuzz-schema: no generator for type ${concrete[0]} at /${path.join('/')}`);
  }
}
