import type { ValidationDetail } from '@pis/domain';
import type { ErrorObject } from 'ajv';
import { DATE_TIME_INPUT_FORMAT, DATE_TIME_INPUT_PATTERN } from '../schemas/primitives';

/** RFC 6901: `~` and `/` inside a reference token. */
export const pointerToken = (name: string | number): string =>
  String(name).replace(/~/g, '~0').replace(/\//g, '~1');

/**
 * ajv's errors as the contract's details: a JSON Pointer to the offending value itself
 * (for a missing or unknown property, the property's own path) and a short message.
 */
export function toDetails(errors: readonly ErrorObject[] | null | undefined): ValidationDetail[] {
  const seen = new Set<string>();
  const details: ValidationDetail[] = [];
  for (const error of errors ?? []) {
    const detail = toDetail(error);
    const key = `${detail.path}\u0000${detail.message}`;
    if (!seen.has(key)) details.push(detail);
    seen.add(key);
  }
  return details;
}

function toDetail(e: ErrorObject): ValidationDetail {
  const at = e.instancePath;
  const p = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case 'additionalProperties':
      return { path: `${at}/${pointerToken(String(p.additionalProperty))}`, message: 'unknown property' };
    case 'required':
      return { path: `${at}/${pointerToken(String(p.missingProperty))}`, message: 'is required' };
    case 'type':
      return { path: at, message: `must be ${typeWords(p.type)}` };
    case 'enum':
      return { path: at, message: `must be one of: ${(p.allowedValues as unknown[]).join(', ')}` };
    case 'const':
      return { path: at, message: `must be ${JSON.stringify(p.allowedValue)}` };
    case 'format':
      return { path: at, message: formatMessage(String(p.format)) };
    case 'minLength':
      return { path: at, message: `must be at least ${plural(p.limit, 'character')} long` };
    case 'maxLength':
      return { path: at, message: `must be at most ${plural(p.limit, 'character')} long` };
    case 'minItems':
      return { path: at, message: `must have at least ${plural(p.limit, 'item')}` };
    case 'maxItems':
      return { path: at, message: `must have at most ${plural(p.limit, 'item')}` };
    case 'uniqueItems': {
      const [first, again] = [Number(p.i), Number(p.j)].sort((a, b) => a - b);
      return { path: `${at}/${again}`, message: `duplicates item ${first}` };
    }
    case 'minProperties':
      return { path: at, message: 'must name at least one property' };
    case 'pattern':
      // The date-time pattern restates the format: one message for both.
      return p.pattern === DATE_TIME_INPUT_PATTERN
        ? { path: at, message: DATE_TIME_MESSAGE }
        : { path: at, message: `must match ${String(p.pattern)}` };
    default:
      return { path: at, message: e.message ?? `fails ${e.keyword}` };
  }
}

function typeWords(type: unknown): string {
  const words = String(type)
    .split(',')
    .map((t) =>
      t === 'null' ? 'null' : t === 'integer' || t === 'object' || t === 'array' ? `an ${t}` : `a ${t}`,
    );
  return words.join(' or ');
}

const DATE_TIME_MESSAGE =
  'must be an ISO 8601 date-time with an offset, e.g. 2026-11-21T19:00:00Z or 2026-11-21T20:00+01:00';

function formatMessage(format: string): string {
  return format === 'date-time' || format === DATE_TIME_INPUT_FORMAT
    ? DATE_TIME_MESSAGE
    : `must be a valid ${format}`;
}

const plural = (n: unknown, word: string) => `${String(n)} ${word}${n === 1 ? '' : 's'}`;
