import { TABLE_GEOMETRY } from '@pis/domain';
import type { FloorPlanChanges, PublishedFloorPlan, PublishedTable, WorkingPlan } from './types';

export type ChangeKind = 'added' | 'deactivated' | 'reactivated' | 'relabelled' | 'updated';

export const CHANGE_KINDS: readonly ChangeKind[] = [
  'added',
  'deactivated',
  'reactivated',
  'relabelled',
  'updated',
];

/** The kinds of change publishing would make to each table, by table id. */
export function changesByTable(changes: FloorPlanChanges): Map<string, ChangeKind[]> {
  const byTable = new Map<string, ChangeKind[]>();
  const add = (id: string, kind: ChangeKind) => byTable.set(id, [...(byTable.get(id) ?? []), kind]);
  for (const id of changes.added) add(id, 'added');
  for (const id of changes.deactivated) add(id, 'deactivated');
  for (const id of changes.reactivated) add(id, 'reactivated');
  for (const r of changes.relabelled) add(r.tableId, 'relabelled');
  for (const id of changes.updated) add(id, 'updated');
  return byTable;
}

export const changeCount = (changes: FloorPlanChanges): number =>
  changes.added.length +
  changes.deactivated.length +
  changes.reactivated.length +
  changes.relabelled.length +
  changes.updated.length;

/** For an updated table, each field of its geometry that differs: "x 100 → 500". */
export function fieldChanges(before: PublishedTable, after: PublishedTable): string[] {
  return TABLE_GEOMETRY.filter((field) => before[field] !== after[field]).map(
    (field) => `${field} ${String(before[field])} → ${String(after[field])}`,
  );
}

/** Tables of a plan by id. */
export function tablesById(plan: WorkingPlan | PublishedFloorPlan | null): Map<string, PublishedTable> {
  const byId = new Map<string, PublishedTable>();
  for (const room of plan?.rooms ?? []) for (const table of room.tables) byId.set(table.id, table);
  return byId;
}
