import { fail, ok, type Outcome } from '../kernel/outcome';
import type { Room, Table, TablePatch } from './floor-plan';
import { normaliseRotation, positionProblems } from './floor-plan-import';

/**
 * Applies a backoffice edit to a table of the working plan. The id never changes and a
 * table is never deleted: deactivating is how one leaves service. The patched table must
 * keep `minCovers <= maxCovers` and its centre inside the room canvas.
 */
export function applyTableEdit(room: Room, table: Table, patch: TablePatch): Outcome<Table> {
  const next: Table = {
    ...table,
    ...definedOnly(patch),
    rotation: normaliseRotation(patch.rotation ?? table.rotation),
  };
  const problems = positionProblems('', next, room.canvasWidth, room.canvasHeight);
  if (next.minCovers > next.maxCovers) {
    problems.push({
      path: '/minCovers',
      message: `minCovers ${next.minCovers} exceeds maxCovers ${next.maxCovers}`,
    });
  }
  return problems.length > 0 ? fail('validation_failed', problems[0]!.message, problems) : ok(next);
}

/**
 * The fields a backoffice edit may set; anything else a caller slips in (an id, a room) is
 * ignored. A Record, so a field added to TablePatch fails the type-check until listed here.
 */
const EDITABLE: Record<keyof TablePatch, true> = {
  label: true,
  active: true,
  x: true,
  y: true,
  rotation: true,
  shape: true,
  seatCount: true,
  minCovers: true,
  maxCovers: true,
};

function definedOnly(patch: TablePatch): Partial<Table> {
  const keys = Object.keys(EDITABLE) as (keyof TablePatch)[];
  return Object.fromEntries(
    keys.filter((key) => patch[key] !== undefined).map((key) => [key, patch[key]]),
  ) as Partial<Table>;
}
