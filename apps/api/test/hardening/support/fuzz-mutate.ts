/**
 * Mutations of a valid body, each aimed at one node of it (found by walking the value
 * beside its schema): a required field dropped, an unknown property added, a wrong type,
 * a value just outside a bound or far outside it, an invalid date-time, text the database
 * cannot store (U+0000, lone surrogates), deeply nested junk, an array where an object is
 * expected (and the reverse), a duplicated item (ids that must be unique), or the whole body
 * replaced. Most mutants break the contract; which ones do is for the contract's validator
 * to say, not for this file (a duplicated tag, for one, is still valid).
 */
import fc from 'fast-check';
import { isDateTime, typesOf, validOf, type Path, type Schema } from './fuzz-schema';

export const MUTATION_KINDS = [
  'drop-required',
  'unknown-property',
  'wrong-type',
  'out-of-bounds',
  'invalid-date-time',
  'unstorable-text',
  'nested-junk',
  'array-for-object',
  'duplicate-item',
  'root-junk',
] as const;
export type MutationKind = (typeof MUTATION_KINDS)[number];

export interface Mutant {
  body: unknown;
  /** What was changed where, for the failure report. */
  mutation: string;
}

interface Node {
  path: Path;
  schema: Schema;
  value: unknown;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Every node of `value` that its schema describes, the root first. */
export function nodesOf(value: unknown, schema: Schema, path: Path = []): Node[] {
  const nodes: Node[] = [{ path, schema, value }];
  if (Array.isArray(value) && schema.items) {
    value.forEach((item, i) => nodes.push(...nodesOf(item, schema.items!, [...path, i])));
  } else if (isObject(value) && schema.properties) {
    for (const [key, item] of Object.entries(value)) {
      const sub = schema.properties[key];
      if (sub) nodes.push(...nodesOf(item, sub, [...path, key]));
    }
  }
  return nodes;
}

const pointer = (path: Path) => '/' + path.map(String).join('/');

/** A copy of `root` with the node at `path` replaced by what `change` returns (`DROP` removes it). */
const DROP = Symbol('drop');
function replaced(root: unknown, path: Path, change: (current: unknown) => unknown): unknown {
  if (path.length === 0) return change(root);
  const copy = structuredClone(root) as Record<string | number, unknown>;
  let parent = copy;
  for (const step of path.slice(0, -1)) parent = parent[step] as Record<string | number, unknown>;
  const last = path[path.length - 1]!;
  const next = change(parent[last]);
  if (next === DROP) {
    if (Array.isArray(parent)) parent.splice(last as number, 1);
    else delete parent[last];
  } else {
    parent[last] = next;
  }
  return copy;
}

/** Property names a schema does not have: near misses, prototype names, odd text. */
const UNKNOWN_KEYS = [
  'extra',
  'externalID',
  'Status',
  'covers ',
  '',
  '__proto__',
  'constructor',
  'toString',
  '💥',
  'a\u0000b',
];

/** Values of every JSON type, to pick one the schema does not allow. */
const ANY_VALUES: unknown[] = [
  0,
  1,
  -1,
  1.5,
  'x',
  '',
  '1',
  'true',
  'null',
  true,
  false,
  null,
  [],
  ['x'],
  {},
  { a: 1 },
];

function allows(schema: Schema, value: unknown): boolean {
  if (schema.enum) return schema.enum.includes(value);
  const types = typesOf(schema);
  if (types.length === 0) return true;
  return types.some((t) => {
    switch (t) {
      case 'null':
        return value === null;
      case 'string':
        return typeof value === 'string';
      case 'boolean':
        return typeof value === 'boolean';
      case 'integer':
        return Number.isInteger(value);
      case 'number':
        return typeof value === 'number';
      case 'array':
        return Array.isArray(value);
      case 'object':
        return isObject(value);
      default:
        return false;
    }
  });
}

/** Values just past or far past the node's bounds. */
function outOfBounds(node: Node): unknown[] {
  const { schema, value } = node;
  const types = typesOf(schema);
  const bad: unknown[] = [];
  if (types.includes('string') && !schema.enum && schema.format === undefined) {
    if (schema.maxLength !== undefined) {
      bad.push('x'.repeat(schema.maxLength + 1), '😀'.repeat(schema.maxLength + 1));
    }
    if ((schema.minLength ?? 0) > 0) bad.push('');
    if (schema.pattern !== undefined) bad.push('NOT valid!', 'x'.repeat(300));
  }
  if (types.includes('integer') || types.includes('number')) {
    if (schema.maximum !== undefined) bad.push(schema.maximum + 1, 1e308);
    if (schema.minimum !== undefined) bad.push(schema.minimum - 1, -1e308);
    if (schema.exclusiveMinimum !== undefined) bad.push(schema.exclusiveMinimum, -1e-300);
    if (types.includes('integer') && !types.includes('number')) {
      bad.push(1.5, 2 ** 53 + 2);
      // Past 32 bits, where the range stops there (sequences go to 2^53 - 1).
      const outside = (n: number) =>
        (schema.maximum !== undefined && n > schema.maximum) ||
        (schema.minimum !== undefined && n < schema.minimum);
      bad.push(...[-(2 ** 31) - 1, 2 ** 31].filter(outside));
    }
  }
  if (types.includes('array') && Array.isArray(value)) {
    if (schema.maxItems !== undefined) {
      const filler = value.length > 0 ? value : ['x'];
      bad.push(Array.from({ length: schema.maxItems + 1 }, (_, i) => filler[i % filler.length]));
    }
    if ((schema.minItems ?? 0) > 0) bad.push([]);
  }
  return bad;
}

/** Date-times the contract refuses: impossible dates and times, missing or impossible offsets, other notations, years out of range. */
export const INVALID_DATE_TIMES = [
  '2023-02-29T10:00:00Z',
  '2026-04-31T10:00Z',
  '2026-11-21T24:00:00Z',
  '2026-11-21T19:60Z',
  '2026-11-21T19:00:60Z',
  '2026-11-21T19:00:00',
  '2026-11-21 19:00:00Z',
  '2026-11-21T19:00:00+24:00',
  '2026-11-21T19:00:00+05:60',
  '2026-11-21T19:00:00+0500',
  '2026-11-21T19Z',
  '0000-01-01T00:00:00Z',
  '0001-01-01T00:00:00+00:01',
  '9999-12-31T23:59:59-00:01',
  '10000-01-01T00:00:00Z',
  '2026-13-01T00:00Z',
  '2026-00-10T00:00Z',
  '2026-11-21T19:00:00.Z',
  '2026-11-21T19:00:00,5Z',
  '',
  ' 2026-11-21T19:00:00Z',
  '2026-11-21T19:00:00Z ',
  '2026-11-21',
  '19:00:00Z',
  '+002026-11-21T19:00:00Z',
  '2026-W47-6T19:00Z',
  '1763751600',
  'now',
  '２０２６-11-21T19:00Z',
  '2026-11-21t19:00:00z',
];

/** Text PostgreSQL cannot store as sent. */
const UNSTORABLE = ['\u0000', 'a\u0000b', '\ud800', 'x\udfff', 'a\ud83d', '\udc00\ud800'];

/** `[[[...]]]` or `{"a":{"a":...}}` `depth` levels deep. */
export function nested(depth: number, objects: boolean): unknown {
  let value: unknown = objects ? {} : [];
  for (let i = 0; i < depth; i += 1) value = objects ? { a: value } : [value];
  return value;
}

const JUNK_DEPTHS = [3, 64, 3000];
const ROOT_JUNK: unknown[] = [null, 0, -1, 'text', '', true, [], [{}], {}, [null], nested(64, false)];

function mutate(
  value: unknown,
  schema: Schema,
  kind: MutationKind,
  pick: number,
  aux: number,
  item: unknown,
): Mutant | null {
  const nodes = nodesOf(value, schema);
  const choose = (candidates: Node[]) =>
    candidates.length === 0 ? null : candidates[pick % candidates.length]!;
  const at = (node: Node, what: string, change: (current: unknown) => unknown): Mutant => ({
    body: replaced(value, node.path, change),
    mutation: `${kind} at ${pointer(node.path)}: ${what}`,
  });

  switch (kind) {
    case 'drop-required': {
      const node = choose(
        nodes.filter(
          (n) => isObject(n.value) && (n.schema.required ?? []).some((k) => k in (n.value as object)),
        ),
      );
      if (!node) return null;
      const present = node.schema.required!.filter((k) => k in (node.value as object));
      const key = present[aux % present.length]!;
      return at(node, `dropped ${key}`, (current) => {
        const copy = { ...(current as object) } as Record<string, unknown>;
        delete copy[key];
        return copy;
      });
    }
    case 'unknown-property': {
      const node = choose(nodes.filter((n) => isObject(n.value) && n.schema.additionalProperties === false));
      if (!node) return null;
      const key = UNKNOWN_KEYS[aux % UNKNOWN_KEYS.length]!;
      return at(node, `added ${JSON.stringify(key)}`, (current) => {
        const copy = { ...(current as object) };
        // defineProperty, so `__proto__` becomes an own key that JSON.stringify sends.
        Object.defineProperty(copy, key, {
          value: item,
          enumerable: true,
          writable: true,
          configurable: true,
        });
        return copy;
      });
    }
    case 'wrong-type': {
      const node = choose(nodes);
      const candidates = ANY_VALUES.filter((v) => !allows(node!.schema, v));
      if (candidates.length === 0) return null;
      const bad = candidates[aux % candidates.length];
      return at(node!, JSON.stringify(bad), () => bad);
    }
    case 'out-of-bounds': {
      const node = choose(nodes.filter((n) => outOfBounds(n).length > 0));
      if (!node) return null;
      const candidates = outOfBounds(node);
      const bad = candidates[aux % candidates.length];
      return at(node, JSON.stringify(bad).slice(0, 60), () => bad);
    }
    case 'invalid-date-time': {
      const node = choose(nodes.filter((n) => isDateTime(n.schema)));
      if (!node) return null;
      const bad = INVALID_DATE_TIMES[aux % INVALID_DATE_TIMES.length]!;
      return at(node, JSON.stringify(bad), () => bad);
    }
    case 'unstorable-text': {
      const node = choose(nodes.filter((n) => typeof n.value === 'string'));
      if (!node) return null;
      const bad = UNSTORABLE[aux % UNSTORABLE.length]!;
      // Inside, before or instead of the valid text.
      const current = node.value as string;
      const cut = aux % (current.length + 1);
      const text = aux % 3 === 0 ? bad : current.slice(0, cut) + bad + current.slice(cut);
      return at(node, JSON.stringify(text), () => text);
    }
    case 'nested-junk': {
      const node = choose(nodes);
      const depth = JUNK_DEPTHS[aux % JUNK_DEPTHS.length]!;
      const objects = aux % 2 === 0;
      return at(node!, `${objects ? 'objects' : 'arrays'} nested ${depth} deep`, () =>
        nested(depth, objects),
      );
    }
    case 'array-for-object': {
      const node = choose(
        nodes.filter((n) => isObject(n.value) || (Array.isArray(n.value) && n.value.length > 0)),
      );
      if (!node) return null;
      if (Array.isArray(node.value))
        return at(node, 'the array as an object', (current) => ({ ...(current as unknown[]) }));
      return aux % 2 === 0
        ? at(node, 'the object in an array', (current) => [current])
        : at(node, 'its values as an array', (current) => Object.values(current as object));
    }
    case 'duplicate-item': {
      const node = choose(nodes.filter((n) => Array.isArray(n.value) && n.value.length > 0));
      if (!node) return null;
      const items = node.value as unknown[];
      const copy = items[aux % items.length];
      return at(node, `item ${aux % items.length} twice`, (current) => [...(current as unknown[]), copy]);
    }
    case 'root-junk': {
      const junk = ROOT_JUNK.filter((v) => !allows(schema, v));
      const body = junk[aux % junk.length];
      return { body, mutation: `root-junk: ${JSON.stringify(body).slice(0, 60)}` };
    }
  }
}

/** Mutants of the values `valid` generates for `schema`; a kind that fits nowhere in a value falls back on a wrong type at the root. */
export function mutantOf(
  schema: Schema,
  valid: fc.Arbitrary<unknown>,
  kinds: readonly MutationKind[] = MUTATION_KINDS,
): fc.Arbitrary<Mutant> {
  return fc
    .record({
      value: valid,
      kind: fc.constantFrom(...kinds),
      pick: fc.nat(),
      aux: fc.nat(),
      item: fc.oneof(fc.constant('x'), fc.integer(), fc.constant(null), fc.object({ maxDepth: 2 })),
    })
    .map(
      ({ value, kind, pick, aux, item }) =>
        mutate(value, schema, kind, pick, aux, item) ?? mutate(value, schema, 'wrong-type', 0, aux, item)!,
    );
}
