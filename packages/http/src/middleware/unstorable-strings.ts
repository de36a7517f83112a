import type { ValidationDetail } from '@pis/domain';
import { pointerToken } from '@pis/contract';

const MAX_REPORTED = 20;
const NUL = 'must not contain the NUL character (U+0000)';
const ILL_FORMED = 'must be well-formed Unicode (a lone surrogate cannot be stored)';
/** A high surrogate not followed by a low one, or a low one not preceded by a high one (UTF-16 code units). */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Strings in a parsed body that PostgreSQL cannot store as sent: U+0000 (refused by `text`
 * and `jsonb`) and lone UTF-16 surrogates (which would be stored as U+FFFD, so the stored
 * value would silently differ from the one the response echoes, and distinct externalIds
 * could collide). Refused at the edge as 422 rather than failing (500) or being altered in
 * the database. Iterative: a body nested a hundred thousand levels deep must not overflow
 * the stack.
 */
export function unstorableStrings(value: unknown): ValidationDetail[] {
  const found: ValidationDetail[] = [];
  const stack: [unknown, string][] = [[value, '']];
  while (stack.length > 0 && found.length < MAX_REPORTED) {
    const [current, path] = stack.pop()!;
    if (typeof current === 'string') {
      if (current.includes('\u0000')) found.push({ path, message: NUL });
      else if (LONE_SURROGATE.test(current)) found.push({ path, message: ILL_FORMED });
    } else if (Array.isArray(current)) {
      for (let i = current.length - 1; i >= 0; i -= 1) stack.push([current[i], `${path}/${i}`]);
    } else if (current !== null && typeof current === 'object') {
      const entries = Object.entries(current);
      for (let i = entries.length - 1; i >= 0; i -= 1) {
        const [key, item] = entries[i]!;
        stack.push([item, `${path}/${pointerToken(key)}`]);
      }
    }
  }
  return found;
}
