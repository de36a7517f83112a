/**
 * Sending fuzzed requests and the values shared by the endpoint suites: JSON bodies go as
 * text with `Content-Type: application/json` (so `null`, numbers and strings are sent as
 * JSON too); raw bodies keep their own headers. Every request goes through `Client`, so a
 * 2xx that does not match the OpenAPI document fails the run.
 */
import fc from 'fast-check';
import type { Response, Test } from 'supertest';
import type { Client } from '../../support/client';
import type { RawBody } from './fuzz-transport';
import { textOf } from './fuzz-schema';

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

export interface Sent {
  res: Response;
  /** One line that says what was sent, for the failure report. */
  context: string;
}

export async function sendJson(client: Client, method: Method, path: string, body?: unknown): Promise<Sent> {
  let test: Test = client[method](path);
  const text = body === undefined ? undefined : JSON.stringify(body);
  if (text !== undefined) test = test.set('Content-Type', 'application/json').send(text);
  const res = await test;
  return { res, context: `${method.toUpperCase()} ${path} ${text?.slice(0, 1500) ?? ''}` };
}

export async function sendRaw(client: Client, method: Method, path: string, raw: RawBody): Promise<Sent> {
  const bytes = typeof raw.text === 'string' ? Buffer.from(raw.text, 'utf8') : raw.text;
  let test = client[method](path)
    .serialize((b: unknown) => b as string)
    .send(bytes as unknown as string)
    .unset('Content-Type');
  if (raw.contentType !== null) test = test.set('Content-Type', raw.contentType);
  if (raw.contentEncoding !== undefined) test = test.set('Content-Encoding', raw.contentEncoding);
  const res = await test;
  return { res, context: `${method.toUpperCase()} ${path} [${raw.description}]` };
}

/** Whether any string in `value` (keys aside) is one PostgreSQL cannot store: U+0000 or a lone surrogate. */
export function hasUnstorableText(value: unknown): boolean {
  if (typeof value === 'string')
    return /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(value);
  if (Array.isArray(value)) return value.some(hasUnstorableText);
  if (typeof value === 'object' && value !== null) return Object.values(value).some(hasUnstorableText);
  return false;
}

/** Path segments that are not valid percent-encoding or decode to something odd. */
export const RAW_SEGMENTS = [
  '%ZZ',
  '%',
  '%E0%A4%A',
  '%ED%A0%80',
  '%C0%AF',
  '%FF',
  'a%00b',
  '%2e%2e',
  '%20',
  '%2F',
  '..',
  '.',
  '%25',
  '%u0041',
  'x'.repeat(3000),
];

/** Ids for the service's own UUID path parameters: well-formed unknown ones, other shapes, odd encodings. */
export const junkIds: fc.Arbitrary<string> = fc.oneof(
  fc.uuid().map((u) => u),
  fc.uuid().map((u) => u.toUpperCase()),
  fc.constantFrom(
    '00000000-0000-0000-0000-000000000000',
    'not-a-uuid',
    '1',
    '-1',
    'null',
    'undefined',
    '{}',
    "1' OR '1'='1",
    ...RAW_SEGMENTS,
  ),
  textOf(1, 40).map(encodeURIComponent),
);

/** `arb` one time in `every`, else null (fc.option's `freq` is the other way round: null one time in freq). */
export const oneIn = <T>(every: number, arb: fc.Arbitrary<T>): fc.Arbitrary<T | null> =>
  fc.oneof({ weight: every - 1, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: arb });

/** Whether a path segment is valid percent-encoded UTF-8 (one that is not is 404 before anything else). */
export function decodes(segment: string): boolean {
  try {
    decodeURIComponent(segment);
    return true;
  } catch {
    return false;
  }
}
