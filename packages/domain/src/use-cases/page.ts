import type { Page } from './use-case.types';

/** Cuts the `limit + 1` rows a query returned into a page and the cursor of the next one. */
export function pageOf<T, C>(rows: T[], limit: number, cursorOf: (last: T) => C): Page<T, C> {
  const items = rows.slice(0, limit);
  const last = items[items.length - 1];
  return { items, next: rows.length > limit && last !== undefined ? cursorOf(last) : null };
}
