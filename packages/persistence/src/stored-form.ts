import type { DomainOf, Fields, InstantText, Plain, Shape } from '@pis/domain';
import { instantFromDb, instantToDb } from './db-instant';

/** How storage writes instants, in `timestamptz` columns and inside jsonb alike: UTC text, microseconds. */
export const STORED_INSTANTS: InstantText = { write: instantToDb, read: instantFromDb };

type Snake<S extends string> = S extends `${infer Head}${infer Tail}`
  ? `${Head extends Lowercase<Head> ? Head : `_${Lowercase<Head>}`}${Snake<Tail>}`
  : S;

type Renames<F extends Fields> = { readonly [K in keyof F & string]?: string };

/**
 * The columns of a shape: each field under its snake_case name (or the one `R` gives it),
 * holding the field's stored form (nested shapes are jsonb in their camelCase JSON form).
 */
export type ColumnsOf<F extends Fields, R extends Renames<F> = {}> = {
  [K in keyof F & string as K extends keyof R ? NonNullable<R[K]> : Snake<K>]: Plain<F[K]>;
};

export interface RowForm<F extends Fields, Row> {
  toRow(value: DomainOf<F>): Row;
  fromRow(row: Row): DomainOf<F>;
}

/** A shape's row form, derived from its fields; a row may hold other columns, which are not read. */
export function rowForm<F extends Fields, const R extends Renames<F> = {}>(
  shape: Shape<F>,
  renamed?: R,
): RowForm<F, ColumnsOf<F, R>> {
  const renames = (renamed ?? {}) as Record<string, string | undefined>;
  const columns = Object.fromEntries(
    Object.keys(shape.fields).map((field) => [field, renames[field] ?? snakeCase(field)]),
  ) as { [K in keyof F]: string };
  const form = shape.renamed(columns);
  return {
    toRow: (value) => form.encode(value, STORED_INSTANTS) as ColumnsOf<F, R>,
    fromRow: (row) => form.decode(row, STORED_INSTANTS),
  };
}

const snakeCase = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** The row type of a row form. */
export type RowOf<T> = T extends RowForm<infer _F, infer Row> ? Row : never;
