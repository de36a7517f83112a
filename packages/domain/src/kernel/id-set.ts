/** Table-id lists compare as sets: order and repetition carry no meaning. */
export function sameIdSet(a: readonly string[], b: readonly string[]): boolean {
  const left = new Set(a);
  const right = new Set(b);
  return left.size === right.size && [...left].every((id) => right.has(id));
}

/** Ids of `a` that are not in `b`, in `a`'s order. */
export function without(a: readonly string[], b: readonly string[]): string[] {
  const drop = new Set(b);
  return a.filter((id) => !drop.has(id));
}

/** Sorted copy without duplicates: the order in which table rows are locked. */
export function lockOrder(ids: readonly string[]): string[] {
  return [...new Set(ids)].sort();
}
