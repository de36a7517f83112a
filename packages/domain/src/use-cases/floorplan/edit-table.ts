import { applyTableEdit } from '../../floorplan/table-edit';
import { fail, ok } from '../../kernel/outcome';
import type { Table, TablePatch } from '../../floorplan/floor-plan';
import type { UseCase } from '../use-case.types';
import { requireLocation } from '../access/require-location';

export type EditTable = UseCase<{ locationId: string; tableId: string; patch: TablePatch }, Table>;

/** A backoffice edit of the working plan; it reaches the provider with the next publish. */
export const editTable: EditTable = async (deps, { locationId, tableId, patch }) => {
  const location = await requireLocation(deps, locationId);
  if (!location.ok) return location;
  return deps.uow.run(async (tx) => {
    const working = await tx.floorPlans.lockWorkingPlan(locationId);
    const room = working.rooms.find((r) => r.tables.some((t) => t.id === tableId));
    const table = room?.tables.find((t) => t.id === tableId);
    if (!room || !table) return fail('not_found', `the location has no table ${tableId}`);
    const edited = applyTableEdit(room, table, patch);
    if (!edited.ok) return edited;
    await tx.floorPlans.saveTable(locationId, edited.value);
    return ok(edited.value);
  });
};
