import { fail, ok, type Outcome } from '../kernel/outcome';
import type { PublishedTables } from './floor-plan-repository.port';

/**
 * Table ids named by a reservation write or a till order must be active tables of the
 * location's latest published plan: before the first publish any id is refused with
 * `floorplan_not_published`; unknown or inactive ids with `unknown_table_id`, naming them.
 */
export function checkTableIds(published: PublishedTables | null, tableIds: readonly string[]): Outcome<void> {
  if (tableIds.length === 0) return ok(undefined);
  if (published === null) {
    return fail(
      'floorplan_not_published',
      'table ids cannot be used before the floor plan is first published',
    );
  }
  const active = new Set(published.tables.filter((t) => t.active).map((t) => t.id));
  const unknown = tableIds.filter((id) => !active.has(id));
  if (unknown.length === 0) return ok(undefined);
  return fail(
    'unknown_table_id',
    `not an active table of the published floor plan: ${unknown.join(', ')}`,
    unknown.map((id) => ({
      path: `/tableIds/${tableIds.indexOf(id)}`,
      message: `unknown or inactive table ${id}`,
    })),
  );
}
