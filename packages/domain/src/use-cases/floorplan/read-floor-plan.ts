import { fail, ok } from '../../kernel/outcome';
import type { PublishedFloorPlan, WorkingPlan } from '../../floorplan/floor-plan';
import type { UseCase } from '../use-case.types';
import { requireLocation } from '../access/require-location';

export type GetPublishedFloorPlan = UseCase<{ locationId: string }, PublishedFloorPlan>;
export type GetWorkingPlan = UseCase<{ locationId: string }, WorkingPlan>;

export const getPublishedFloorPlan: GetPublishedFloorPlan = async (deps, { locationId }) => {
  const plan = await deps.queries.floorPlans.latestPublished(locationId);
  return plan ? ok(plan) : fail('floorplan_not_published', 'the floor plan has not been published yet');
};

export const getWorkingPlan: GetWorkingPlan = async (deps, { locationId }) => {
  const location = await requireLocation(deps, locationId);
  if (!location.ok) return location;
  return ok(await deps.queries.floorPlans.workingPlan(locationId));
};
