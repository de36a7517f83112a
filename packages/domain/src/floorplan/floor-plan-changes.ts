import type { PublishedTable } from './floor-plan';

export interface Relabelled {
  tableId: string;
  from: string;
  to: string;
}

/**
 * What one plan changes against the one before it, table by table. `updated` holds the
 * tables with a change other than their label and active flag (shape, seats, covers,
 * position, rotation, room), so a table only relabelled or only deactivated is not in it.
 */
export interface FloorPlanChanges {
  added: string[];
  deactivated: string[];
  reactivated: string[];
  relabelled: Relabelled[];
  updated: string[];
}

/** A plan as far as the changes look at it: a working plan and a published snapshot both fit. */
export interface ComparablePlan {
  rooms: { id: string; tables: PublishedTable[] }[];
}

/**
 * A table's fields besides its label and active flag: a change to one of them (or to the
 * table's room) makes the table `updated`.
 */
export const TABLE_GEOMETRY = [
  'shape',
  'seatCount',
  'minCovers',
  'maxCovers',
  'x',
  'y',
  'rotation',
] as const satisfies readonly (keyof PublishedTable)[];

/**
 * The changes from `previous` (null before the first publish: every table is added) to
 * `next`, each list in the order of `next`'s rooms and tables. Tables are never deleted,
 * so a table of `previous` that `next` lacks is not reported.
 */
export function floorPlanChanges(previous: ComparablePlan | null, next: ComparablePlan): FloorPlanChanges {
  const before = new Map<string, { roomId: string; table: PublishedTable }>();
  for (const room of previous?.rooms ?? []) {
    for (const table of room.tables) before.set(table.id, { roomId: room.id, table });
  }
  const changes: FloorPlanChanges = {
    added: [],
    deactivated: [],
    reactivated: [],
    relabelled: [],
    updated: [],
  };
  for (const room of next.rooms) {
    for (const table of room.tables) {
      const old = before.get(table.id);
      if (old === undefined) {
        changes.added.push(table.id);
        continue;
      }
      if (old.table.active && !table.active) changes.deactivated.push(table.id);
      if (!old.table.active && table.active) changes.reactivated.push(table.id);
      if (old.table.label !== table.label) {
        changes.relabelled.push({ tableId: table.id, from: old.table.label, to: table.label });
      }
      if (old.roomId !== room.id || TABLE_GEOMETRY.some((field) => old.table[field] !== table[field])) {
        changes.updated.push(table.id);
      }
    }
  }
  return changes;
}
