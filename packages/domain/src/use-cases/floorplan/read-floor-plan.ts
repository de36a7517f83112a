import { fail, ok } from '../../shared/outcome';
import type { GetPublishedFloorPlan, GetWorkingPlan } from '../use-case.types';
import { requireLocation } from '../access/require-location';

export const getPublishedFloorPlan: GetPublishedFloorPlan = async (deps, { locationId }) => {
  const plan = await deps.queries.floorPlans.latestPublished(locationId);
  return plan ? ok(plan) : fail('floorplan_not_published', 'the floor plan has not been published yet');
};

export const getWorkingPlan: GetWorkingPlan = async (deps, { locationId }) => {
  const location = await requireLocation(deps, locationId);
  if (!location.ok) return location;
  return ok(await deps.queries.floorPlans.workingPlan(locationId));
};
