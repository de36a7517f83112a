/**
 * A deep copy of a stored value, so neither the caller nor the store can change the other's
 * copy (what a database round trip gives). Instances of classes (`Instant`) are immutable
 * values and are shared as they are; `structuredClone` would drop their prototype.
 */
export function detach<T>(value: T): T {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((item: unknown) => detach(item)) as T;
  const proto = Object.getPrototypeOf(value) as unknown;
  if (proto !== Object.prototype && proto !== null) return value;
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) copy[key] = detach(item);
  return copy as T;
}
