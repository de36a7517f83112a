/**
 * What surrounds a body: JSON text that is not JSON (or is JSON with odd number tokens),
 * Content-Type and Content-Encoding values, Authorization, Accept and X-Request-Id
 * variants. Header values stay printable Latin-1 (anything else never leaves the client).
 */
import fc from 'fast-check';

export interface RawBody {
  /** `null`: no Content-Type header at all. */
  contentType: string | null;
  contentEncoding?: string;
  text: string | Buffer;
  description: string;
}

/** Ways to break JSON text; each leaves text that `JSON.parse` refuses (checked where generated). */
const BREAKS: ((json: string, at: number) => string)[] = [
  (json, at) => json.slice(0, Math.max(1, at % json.length)), // truncated
  (json) => json.replace(/}$/, ',}'), // trailing comma
  (json) => json.replace(/"/g, "'"), // single quotes
  (json) => json.replace(/"(\w+)":/, '$1:'), // an unquoted key
  (json) => json.replace(/:(\d+)/, ':NaN'),
  (json) => json.replace(/:(\d+)/, ':Infinity'),
  (json) => json.replace(/:(\d+)/, ':0x1F'),
  (json) => json.replace(/:(\d+)/, ':01'),
  (json) => `${json} // comment`,
  (json) => `${json}}`,
  (json) => `${json}${json}`,
  (json) => json.replace(/"([^"]*)"/, '"$1\u0001"'), // a raw control character inside a string
  (json) => json.replace(/"([^"]*)"/, '"$1\\x41"'), // an escape JSON does not have
  (json) => json.replace(/"([^"]*)"/, '"$1\\ud8"'), // a short unicode escape
  () => 'undefined',
  () => "{'a': 1}",
  () => '{"a": }',
  () => '[',
  () => '\u00ff\u00fe{}',
  () => '<xml/>',
  () => 'name=x&covers=2',
];

/** JSON text (still valid JSON) whose number tokens are odd: huge, tiny, negative zero, exponents, long integers. */
const ODD_NUMBERS = [
  '1e400',
  '-1e400',
  '1e-400',
  '-0',
  '1E+2',
  '0.0000001',
  '123456789012345678901234567890',
  '2.0',
  '4.9e-324',
];

/**
 * Bodies sent as raw text with their own Content-Type: not JSON, odd number tokens in
 * otherwise valid JSON, the right text with a wrong or odd Content-Type or encoding.
 */
export function rawBodyOf(valid: fc.Arbitrary<unknown>): fc.Arbitrary<RawBody> {
  const json = valid.map((v) => JSON.stringify(v));
  const broken = fc
    .record({ json, which: fc.nat(BREAKS.length - 1), at: fc.nat() })
    .map(({ json: text, which, at }): RawBody => {
      const bad = BREAKS[which]!(text, at);
      return {
        contentType: 'application/json',
        text: bad,
        description: `not JSON (break ${which}): ${bad.slice(0, 80)}`,
      };
    })
    .filter((b) => !parses(b.text as string));
  const oddNumbers = fc
    .record({ json, token: fc.constantFrom(...ODD_NUMBERS), nth: fc.nat() })
    .map(({ json: text, token, nth }): RawBody => {
      const numbers = [...text.matchAll(/(?<=[:\[,])-?\d+(\.\d+)?([eE][+-]?\d+)?(?=[,}\]])/g)];
      const target = numbers.length === 0 ? null : numbers[nth % numbers.length]!;
      const odd =
        target === null
          ? `[${token}]`
          : text.slice(0, target.index) + token + text.slice(target.index! + target[0].length);
      return {
        contentType: 'application/json',
        text: odd,
        description: `number token ${token}: ${odd.slice(0, 80)}`,
      };
    });
  const mislabelled = fc
    .record({ json, contentType: CONTENT_TYPES })
    .map(({ json: text, contentType }): RawBody => ({
      contentType,
      text,
      description: `Content-Type ${JSON.stringify(contentType)}`,
    }));
  const encoded = fc
    .record({ json, encoding: CONTENT_ENCODINGS })
    .map(({ json: text, encoding }): RawBody => ({
      contentType: 'application/json',
      contentEncoding: encoding,
      text,
      description: `Content-Encoding ${JSON.stringify(encoding)} on plain JSON`,
    }));
  const bytes = fc
    .record({ json, bytes: fc.constantFrom([0xff], [0xc3], [0xed, 0xa0, 0x80], [0xef, 0xbb, 0xbf], [0x00]) })
    .map(({ json: text, bytes: raw }): RawBody => {
      // Raw bytes inside the first string value (or before the body): invalid UTF-8, a BOM, a NUL byte.
      const at = text.indexOf('"') + 1;
      const buffer =
        at > 0
          ? Buffer.concat([Buffer.from(text.slice(0, at)), Buffer.from(raw), Buffer.from(text.slice(at))])
          : Buffer.concat([Buffer.from(raw), Buffer.from(text)]);
      return {
        contentType: 'application/json',
        text: buffer,
        description: `raw bytes ${JSON.stringify(raw)} in the body`,
      };
    });
  const empty = fc.constantFrom<RawBody>(
    { contentType: 'application/json', text: '', description: 'an empty body labelled JSON' },
    { contentType: 'application/json', text: '   \n', description: 'a whitespace body' },
    { contentType: 'application/json', text: 'null', description: 'the JSON null' },
    { contentType: null, text: '', description: 'nothing at all' },
  );
  return fc.oneof(
    { weight: 4, arbitrary: broken },
    { weight: 2, arbitrary: oddNumbers },
    { weight: 3, arbitrary: mislabelled },
    { weight: 1, arbitrary: encoded },
    { weight: 1, arbitrary: bytes },
    { weight: 1, arbitrary: empty },
  );
}

function parses(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

export const CONTENT_TYPES = fc.constantFrom<string | null>(
  null,
  'text/plain',
  'application/xml',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=xyz',
  'application/jsonx',
  'application/json-patch+json',
  'application/vnd.api+json',
  'application/json; charset=latin1',
  'application/json; charset=utf-16',
  'application/json; charset=nonsense',
  'application/json; charset="utf-8"',
  'APPLICATION/JSON',
  'application/json;',
  'application/json; charset',
  'application/json ; charset=utf-8',
  '*/*',
  'application/*',
  'json',
  ';;;',
  'application/json, text/plain',
  '',
  ' ',
  'application/json; boundary=x; charset=utf-8; q=0.1',
  'a'.repeat(2000),
);

export const CONTENT_ENCODINGS = fc.constantFrom(
  'gzip',
  'deflate',
  'br',
  'identity',
  'x-unknown',
  'gzip, gzip',
  'GZIP',
  '',
);

export const ACCEPTS = fc.constantFrom<string | null>(
  null,
  '*/*',
  'application/json',
  'application/xml',
  'text/html',
  'text/plain;q=0.1',
  'application/problem+json',
  'image/png, */*;q=0',
  'garbage',
  ',,,',
  '',
);

/** Caller request ids: sane ones are kept, anything else is replaced by a fresh one. */
export const REQUEST_IDS = fc.oneof(
  fc.constantFrom<string | null>(
    null,
    '',
    ' ',
    'a b',
    'x'.repeat(129),
    'x'.repeat(128),
    '../../etc',
    '<script>',
    'ok-1.2:3_4',
    '%00',
    '"quoted"',
  ),
  fc.stringMatching(/^[ -~]{0,40}$/),
);

/**
 * Authorization values that must be refused (401) for any surface: nothing, other schemes,
 * no token, two tokens, tokens of the wrong shape, near misses of a real one.
 */
export function brokenAuthorizations(realToken: string): fc.Arbitrary<string | null> {
  return fc.oneof(
    fc.constantFrom<string | null>(
      null,
      '',
      'Bearer',
      'Bearer ',
      'Bearer  ',
      'Basic dXNlcjpwYXNz',
      `Basic ${realToken}`,
      `Token ${realToken}`,
      `Bearer ${realToken} ${realToken}`,
      `Bearer ${realToken}x`,
      `Bearer ${realToken.slice(0, -1)}`,
      `Bearer ${realToken.toUpperCase()}`,
      `Bearer\t${realToken}`,
      `Bearer:${realToken}`,
      `Bearer "${realToken}"`,
      `${realToken}`,
      `Bearer ${'x'.repeat(4000)}`,
      'Bearer pis_sk_live_' + '0'.repeat(32),
      'Bearer null',
      'Bearer undefined',
      "Bearer ' OR 1=1 --",
      'Bearer %00',
      'Bearer \u00e9\u00e8',
    ),
    fc
      .stringMatching(/^[ -~]{0,60}$/)
      .map((s) => `Bearer ${s}`)
      .filter((v) => !v.includes(realToken)),
    fc.stringMatching(/^[ -~]{0,60}$/).filter((v) => !v.includes(realToken)),
  );
}

/** Accepted spellings of a valid credential: the scheme is case-insensitive and spaces around the token are allowed. */
export function validAuthorizations(realToken: string): fc.Arbitrary<string> {
  return fc.constantFrom(
    `Bearer ${realToken}`,
    `bearer ${realToken}`,
    `BEARER ${realToken}`,
    `Bearer   ${realToken}`,
    `Bearer ${realToken} `,
  );
}
