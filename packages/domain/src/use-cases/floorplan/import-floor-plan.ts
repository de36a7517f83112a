import { planImport } from '../../floorplan/floor-plan-import';
import { ok } from '../../kernel/outcome';
import type { FloorPlanImportInput, ImportResult } from '../../floorplan/floor-plan';
import type { UseCase } from '../use-case.types';

export type ImportFloorPlan = UseCase<{ locationId: string; input: FloorPlanImportInput }, ImportResult>;

/** One-shot onboarding: creates (or, with `replaceDraft`, overwrites) the never-published draft. */
export const importFloorPlan: ImportFloorPlan = async (deps, { locationId, input }) =>
  deps.uow.run(async (tx) => {
    const working = await tx.floorPlans.lockWorkingPlan(locationId);
    const plan = planImport(working, input, () => deps.ids.uuid());
    if (!plan.ok) return plan;
    await tx.floorPlans.replaceDraft(locationId, plan.value.rooms);
    return ok(plan.value.result);
  });
