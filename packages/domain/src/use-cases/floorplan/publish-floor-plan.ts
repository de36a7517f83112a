import { planPublish } from '../../floorplan/floor-plan-publish';
import { ok } from '../../shared/outcome';
import type { PublishFloorPlan } from '../use-case.types';
import { requireLocation } from '../access/require-location';

/** The operator publishes the working plan; the provider hears `floorplan.published`. */
export const publishFloorPlan: PublishFloorPlan = async (deps, { locationId }) => {
  const location = await requireLocation(deps, locationId);
  if (!location.ok) return location;
  const now = deps.clock.now();
  return deps.uow.run(async (tx) => {
    const decision = planPublish(await tx.floorPlans.lockWorkingPlan(locationId), now);
    if (!decision.ok) return decision;
    await tx.floorPlans.savePublished(locationId, decision.value.plan);
    await tx.outbox.append(locationId, [decision.value.event]);
    return ok({ version: decision.value.plan.version, publishedAt: decision.value.plan.publishedAt });
  });
};
