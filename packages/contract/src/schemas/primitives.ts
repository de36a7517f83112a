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
 * ISO 8601 with a mandatory offset; seconds and fraction optional; calendar-valid. The
 * `date-time` format is registered with the domain's `Instant.parse`, not RFC 3339's.
 */
export const dateTime = () => ({ type: 'string', format: 'date-time' }) as const;

export const nullableDateTime = () =>
  ({ type: ['string', 'null'], format: 'date-time', default: null }) as const;

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
