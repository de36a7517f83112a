import { floorPlanChanges, type FloorPlanChanges } from '../../floorplan/floor-plan-changes';
import type { PublishedFloorPlan } from '../../floorplan/floor-plan';
import { ok } from '../../kernel/outcome';
import type { Deps } from '../deps';
import type { UseCase } from '../use-case.types';
import { requireLocation } from '../access/require-location';

export interface PublishPreview {
  /** The latest published plan the changes are counted against; null before the first publish. */
  published: PublishedFloorPlan | null;
  /** What publishing the working plan now would change. */
  changes: FloorPlanChanges;
}

export type PreviewFloorPlanPublish = UseCase<{ locationId: string }, PublishPreview>;

/**
 * The two reads are taken outside a transaction: a publish between them shows as a version
 * the working plan does not name, and the pair is read again (the last pair is answered when
 * publishes keep landing in between, which only a burst of publishes can cause).
 */
const ATTEMPTS = 3;

/** The operator's view before publishing: the published plan and the changes a publish would make. */
export const previewFloorPlanPublish: PreviewFloorPlanPublish = async (deps, { locationId }) => {
  const location = await requireLocation(deps, locationId);
  if (!location.ok) return location;
  let read = await readBoth(deps, locationId);
  for (let attempt = 1; attempt < ATTEMPTS && !read.consistent; attempt += 1) {
    read = await readBoth(deps, locationId);
  }
  return ok({ published: read.published, changes: floorPlanChanges(read.published, read.working) });
};

async function readBoth(deps: Deps, locationId: string) {
  const published = await deps.queries.floorPlans.latestPublished(locationId);
  const working = await deps.queries.floorPlans.workingPlan(locationId);
  return { published, working, consistent: working.publishedVersion === (published?.version ?? null) };
}
