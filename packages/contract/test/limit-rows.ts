import type { ValidationDetail } from '@pis/domain';

type Checked = { ok: true } | { ok: false; details: ValidationDetail[] };

export const str = (length: number) => 'x'.repeat(length);
export const list = <T>(length: number, item: (i: number) => T): T[] =>
  Array.from({ length }, (_, i) => item(i));

/** A copy of `body` with the value at the JSON Pointer `pointer` replaced (or removed for `undefined`). */
export function withValue<T>(body: T, pointer: string, value: unknown): T {
  const copy = structuredClone(body) as unknown as Record<string, unknown>;
  const tokens = pointer.split('/').slice(1);
  const last = tokens.pop()!;
  let node: Record<string, unknown> = copy;
  for (const token of tokens) node = node[token] as Record<string, unknown>;
  if (value === undefined) delete node[last];
  else node[last] = value;
  return copy as unknown as T;
}

export interface LimitRow {
  pointer: string;
  valid: unknown[];
  invalid: unknown[];
}

/** Rows flattened for `it.each`: one case per value, with the pointer the refusal must name. */
export function limitCases(rows: LimitRow[]) {
  const show = (v: unknown) => {
    const json = JSON.stringify(v) ?? String(v);
    return json.length > 30
      ? `${json.slice(0, 12)}... (${Array.isArray(v) ? `${v.length} items` : `${json.length - 2} chars`})`
      : json;
  };
  return {
    accepted: rows.flatMap((r) =>
      r.valid.map((value) => ({ pointer: r.pointer, value, shown: show(value) })),
    ),
    refused: rows.flatMap((r) =>
      r.invalid.map((value) => ({ pointer: r.pointer, value, shown: show(value) })),
    ),
  };
}

/** The checked value failed, and only at `pointer`. */
export function expectRefusedAt(result: Checked, pointer: string) {
  expect(result.ok).toBe(false);
  const paths = result.ok ? [] : result.details.map((d) => d.path);
  expect(paths.length).toBeGreaterThan(0);
  expect(new Set(paths)).toEqual(new Set([pointer]));
}
