/**
 * Building blocks of the wire schemas. Each helper returns a fresh `as const` object so
 * `json-schema-to-ts` can derive the wire types from the very objects ajv compiles and
 * the OpenAPI document publishes.
 */

/**
 * Every integer on the wire is a signed 32-bit value
 * (docs/reference/limits-and-formats.md#integers-and-amounts).
 */
export const MAX_INT32 = 2_147_483_647;

export const text = <Min extends number, Max extends number>(minLength: Min, maxLength: Max) =>
  ({ type: 'string', minLength, maxLength }) as const;

/** A string of at least `minLength` characters with no upper bound of its own. */
export const atLeast = <Min extends number>(minLength: Min) => ({ type: 'string', minLength }) as const;

/** `string | null`, null by default: how the contract's optional text fields read. */
export const nullableText = <Min extends number, Max extends number>(minLength: Min, maxLength: Max) =>
  ({ type: ['string', 'null'], minLength, maxLength, default: null }) as const;

export const int = <Min extends number, Max extends number>(minimum: Min, maximum: Max) =>
  ({ type: 'integer', minimum, maximum }) as const;

export const nullableInt = <Min extends number, Max extends number>(minimum: Min, maximum: Max) =>
  ({ type: ['integer', 'null'], minimum, maximum, default: null }) as const;

/**
 * The name of the date-time format requests take (decision 0002): ISO 8601 with a mandatory
 * offset, seconds and fraction optional, calendar-valid. Not RFC 3339's `date-time`, which
 * requires seconds: a client or gateway enforcing that would refuse `2026-12-01T19:00+01:00`,
 * which the service accepts. ajv registers it with the domain's `Instant.parse`.
 */
export const DATE_TIME_INPUT_FORMAT = 'iso8601-date-time';

const YEAR = '(?:[0-9]{3}[1-9]|[0-9]{2}[1-9]0|[0-9][1-9]00|[1-9]000)';
/** Years divisible by 4 but not by 100, or by 400 (0000 is no year of the contract). */
const LEAP_YEAR = '(?:[0-9]{2}(?:0[48]|[2468][048]|[13579][26])|(?:0[48]|[2468][048]|[13579][26])00)';
const MONTH_AND_DAY =
  '(?:(?:0[13578]|1[02])-(?:0[1-9]|[12][0-9]|3[01])|(?:0[469]|11)-(?:0[1-9]|[12][0-9]|30)|02-(?:0[1-9]|1[0-9]|2[0-8]))';
const TIME = '(?:[01][0-9]|2[0-3]):[0-5][0-9](?::[0-5][0-9](?:\\.[0-9]+)?)?';
const OFFSET = '(?:Z|[+-](?:[01][0-9]|2[0-3]):[0-5][0-9])';

/**
 * `iso8601-date-time` as a regular expression any JSON Schema tool can check: the syntax and
 * the calendar of `Instant.parse` exactly (leap years included), without look-arounds or
 * `\d`, so it means the same in every regex dialect. The one rule it leaves to the format is
 * the range: an instant that the offset carries before 0001-01-01T00:00Z or after year 9999
 * matches but is refused (packages/contract/src/validation/date-time-pattern.spec.ts).
 */
export const DATE_TIME_INPUT_PATTERN = `^(?:${YEAR}-${MONTH_AND_DAY}|${LEAP_YEAR}-02-29)T${TIME}${OFFSET}$`;

const DATE_TIME_INPUT =
  'ISO 8601 with a mandatory offset, seconds optional (format `iso8601-date-time`, not RFC 3339 ' +
  '`date-time`), e.g. `2026-12-01T19:00+01:00`; the date must exist and the instant lie in the ' +
  'years 0001-9999.';

/**
 * A date-time a request sends (docs/reference/limits-and-formats.md#date-times): the named
 * format, the pattern and a description saying both, after the field's own `description`.
 */
export const dateTime = (description?: string) =>
  ({
    type: 'string',
    format: DATE_TIME_INPUT_FORMAT,
    pattern: DATE_TIME_INPUT_PATTERN,
    description: description === undefined ? DATE_TIME_INPUT : `${description}. ${DATE_TIME_INPUT}`,
  }) as const;

export const nullableDateTime = () =>
  ({
    type: ['string', 'null'],
    format: DATE_TIME_INPUT_FORMAT,
    pattern: DATE_TIME_INPUT_PATTERN,
    description: DATE_TIME_INPUT,
    default: null,
  }) as const;

/**
 * How responses and webhooks render every instant: UTC, `Z`, milliseconds
 * (docs/reference/limits-and-formats.md#rendering).
 */
const UTC_MILLIS = '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z$';

export const utcDateTime = () => ({ type: 'string', format: 'date-time', pattern: UTC_MILLIS }) as const;

export const nullableUtcDateTime = () =>
  ({ type: ['string', 'null'], format: 'date-time', pattern: UTC_MILLIS }) as const;

export const oneOfValues = <const V extends readonly string[]>(values: V) =>
  ({ type: 'string', enum: values }) as const;

export const arrayOf = <I, Max extends number>(items: I, maxItems: Max) =>
  ({ type: 'array', items, maxItems }) as const;

/**
 * A closed object: unknown properties are refused
 * (docs/reference/limits-and-formats.md#unknown-properties).
 */
export const closedObject = <
  P extends Record<string, unknown>,
  const R extends readonly (keyof P & string)[],
>(
  properties: P,
  required: R,
) => ({ type: 'object', properties, required, additionalProperties: false }) as const;

/** The response form: closed, and every property present. */
export const responseObject = <P extends Record<string, unknown>>(properties: P) =>
  ({
    type: 'object',
    properties,
    required: Object.keys(properties) as (keyof P & string)[],
    additionalProperties: false,
  }) as const;
