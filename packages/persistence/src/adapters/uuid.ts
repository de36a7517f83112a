/**
 * Ids of this service are canonical lower-case UUIDs. Anything else (another case, another
 * shape) names nothing here: it is filtered out before it reaches a `uuid` parameter, so a
 * stray id answers "not found" instead of a SQL error.
 */
const CANONICAL_UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export function isUuid(value: string): boolean {
  return CANONICAL_UUID.test(value);
}

/** The canonical UUIDs among `ids`, each once, in their first order. */
export function uuidsOnly(ids: readonly string[]): string[] {
  return [...new Set(ids.filter(isUuid))];
}
