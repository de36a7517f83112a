import type { Instant } from './instant';

/**
 * How a form writes instants as text. The wire renders UTC with milliseconds, storage keeps
 * microseconds; apart from that, a shape's plain form is the same JSON in both.
 */
export interface InstantText {
  write(instant: Instant): string;
  read(text: string): Instant;
}

/**
 * One field of a shape: `D` is its domain type, `P` its plain (JSON) type and `I` what a
 * request may send for it. When `I` admits `undefined` the field may be left out, and
 * `decode` fills its default.
 */
export interface Field<D, P, I = P> {
  encode(value: D, instants: InstantText): P;
  decode(value: I, instants: InstantText): D;
  /** A copy that shares nothing mutable with `value` and holds only the shape's fields. */
  copy(value: D): D;
}

/** A field list mixes fields of every type. */
type AnyField = Field<any, any, any>;
export type Fields = Record<string, AnyField>;

/** The domain type of a field or shape. */
export type Domain<T> = T extends Field<infer D, any, any> ? D : never;
/** The plain (JSON) form of a field or shape: instants as text. */
export type Plain<T> = T extends Field<any, infer P, any> ? P : never;
/** What a request may send for a field or shape. */
export type Input<T> = T extends Field<any, any, infer I> ? I : never;

export type DomainOf<F extends Fields> = { [K in keyof F]: Domain<F[K]> };
export type PlainOf<F extends Fields> = { [K in keyof F]: Plain<F[K]> };
type LeftOut<F extends Fields> = { [K in keyof F]: undefined extends Input<F[K]> ? K : never }[keyof F];
export type InputOf<F extends Fields> = { [K in Exclude<keyof F, LeftOut<F>>]: Input<F[K]> } & {
  [K in LeftOut<F>]?: Input<F[K]>;
};

/**
 * The one place a shape's fields are listed. Encoding and decoding walk the fields in the
 * listed order, so that order is the key order of every form (wire JSON, jsonb, rows).
 */
export interface Shape<F extends Fields> extends Field<DomainOf<F>, PlainOf<F>, InputOf<F>> {
  readonly fields: F;
  pick<K extends keyof F & string>(...keys: K[]): Shape<Pick<F, K>>;
  omit<K extends keyof F & string>(...keys: K[]): Shape<Omit<F, K>>;
  /**
   * The plain form with every field under the name `names` gives it (a row's columns, say):
   * `encode` writes those names, `decode` reads them and ignores any other.
   */
  renamed(names: { readonly [K in keyof F]: string }): Field<DomainOf<F>, object, object>;
}

export function shape<F extends Fields>(fields: F): Shape<F> {
  const keys = Object.keys(fields);
  const same = keys.map((key) => [key, key] as const);
  const only = <G extends Fields>(keep: (key: string) => boolean): Shape<G> =>
    shape(Object.fromEntries(keys.filter(keep).map((key) => [key, fields[key]])) as G);
  return {
    fields,
    encode: walker(fields, 'encode', same),
    decode: walker(fields, 'decode', same),
    copy: walker(fields, 'copy', same),
    pick: (...picked) => only((key) => (picked as string[]).includes(key)),
    omit: (...omitted) => only((key) => !(omitted as string[]).includes(key)),
    renamed(names) {
      const to = keys.map((key) => [names[key]!, key] as const);
      const from = keys.map((key) => [key, names[key]!] as const);
      return {
        encode: walker(fields, 'encode', to),
        decode: walker(fields, 'decode', from),
        copy: walker(fields, 'copy', same),
      };
    },
  };
}

/**
 * One step over every field, as an object literal compiled once per shape and form: it
 * runs for every field of every reservation listed, and a literal with fixed keys is as
 * fast as a hand-written mapper (a loop over the keys is about twice as slow). Fields
 * carried as they are cost no call. The source holds only quoted names and indexes.
 * `names` pairs each field's key in the result with its key in the argument, in order.
 */
function walker(
  fields: Fields,
  step: 'encode' | 'decode' | 'copy',
  names: readonly (readonly [string, string])[],
): never {
  const codecs = Object.values(fields);
  const entries = names.map(([to, from], i) => {
    const read = `v[${JSON.stringify(from)}]`;
    return `${JSON.stringify(to)}: ${codecs[i] === carried ? read : `c[${i}].${step}(${read}, t)`}`;
  });
  return new Function('c', `return (v, t) => ({ ${entries.join(', ')} });`)(codecs) as never;
}

const carried = { encode: <T>(v: T) => v, decode: <T>(v: T) => v, copy: <T>(v: T) => v };

/** Carried as it is: text, numbers, booleans, enumerations. Required in a request. */
export const value = <T>(): Field<T, T> => carried;

/** As `value`; a request may leave it out and gets `fallback`. */
export const valueOr = <T>(fallback: T): Field<T, T, T | undefined> => ({
  ...carried,
  decode: (v) => v ?? fallback,
});

export const instant = (): Field<Instant, string> => ({
  encode: (v, instants) => instants.write(v),
  decode: (v, instants) => instants.read(v),
  copy: (v) => v,
});

/** `null` when absent, in every form; a request may leave it out. */
export const orNull = <D, P, I>(field: Field<D, P, I>): Field<D | null, P | null, I | null | undefined> => ({
  encode: (v, instants) => (v === null ? null : field.encode(v, instants)),
  decode: (v, instants) => (v === null || v === undefined ? null : field.decode(v, instants)),
  copy: (v) => (v === null ? null : field.copy(v)),
});

/** `T | null`, null when a request leaves it out. */
export const nullable = <T>(): Field<T | null, T | null, T | null | undefined> => orNull(value<T>());

/** A list; `[]` when a request leaves it out. */
export const list = <D, P, I>(item: Field<D, P, I>): Field<D[], P[], readonly I[] | undefined> => ({
  encode: (v, instants) => v.map((x) => item.encode(x, instants)),
  decode: (v, instants) => (v ?? []).map((x) => item.decode(x, instants)),
  copy: (v) => v.map((x) => item.copy(x)),
});
