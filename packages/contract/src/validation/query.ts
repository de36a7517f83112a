import { componentSchemas, type QueryName } from '../schemas/components';

const INTEGER = /^-?\d+$/;

/**
 * Query parameters arrive as strings. Integer parameters are turned into numbers only when
 * they are written as whole decimal integers, so `limit=1.5`, `limit=abc` and `limit=`
 * stay strings and fail the schema's `integer` type. Repeated parameters stay arrays and
 * fail the same way.
 */
export function coerceQuery(name: QueryName, raw: unknown): Record<string, unknown> {
  const properties = componentSchemas[name].properties as Record<string, { type?: unknown }>;
  const query: Record<string, unknown> = {};
  if (typeof raw !== 'object' || raw === null) return query;
  for (const [key, value] of Object.entries(raw)) {
    const integer = Object.hasOwn(properties, key) && properties[key]?.type === 'integer';
    query[key] = integer && typeof value === 'string' && INTEGER.test(value) ? Number(value) : value;
  }
  return query;
}
