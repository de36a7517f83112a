import { planImport } from '../../floorplan/floor-plan-import';
import { ok } from '../../shared/outcome';
import type { ImportFloorPlan } from '../use-case.types';

/** One-shot onboarding: creates (or, with `replaceDraft`, overwrites) the never-published draft. */
export const importFloorPlan: ImportFloorPlan = async (deps, { locationId, input }) =>
  deps.uow.run(async (tx) => {
    const working = await tx.floorPlans.lockWorkingPlan(locationId);
    const plan = planImport(working, input, () => deps.ids.uuid());
    if (!plan.ok) return plan;
    await tx.floorPlans.replaceDraft(locationId, plan.value.rooms);
    return ok(plan.value.result);
  });
