import { planPublish } from '../../floorplan/floor-plan-publish';
import { ok } from '../../kernel/outcome';
import type { Instant } from '../../kernel/instant';
import type { UseCase } from '../use-case.types';
import { requireLocation } from '../access/require-location';

export type PublishFloorPlan = UseCase<{ locationId: string }, { version: number; publishedAt: Instant }>;

/** The operator publishes the working plan; the provider hears `floorplan.published`. */
export const publishFloorPlan: PublishFloorPlan = async (deps, { locationId }) => {
  const location = await requireLocation(deps, locationId);
  if (!location.ok) return location;
  const now = deps.clock.now();
  return deps.uow.run(async (tx) => {
    const decision = planPublish(
      await tx.floorPlans.lockWorkingPlan(locationId),
      await tx.floorPlans.latestPublished(locationId),
      now,
    );
    if (!decision.ok) return decision;
    await tx.floorPlans.savePublished(locationId, decision.value.plan);
    await tx.outbox.append(locationId, [decision.value.event]);
    return ok({ version: decision.value.plan.version, publishedAt: decision.value.plan.publishedAt });
  });
};
