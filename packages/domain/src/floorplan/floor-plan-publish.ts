import type { DomainEvent } from '../events/domain-event';
import type { Instant } from '../kernel/instant';
import { fail, ok, type Outcome } from '../kernel/outcome';
import { publishedRoomShape, type PublishedFloorPlan, type WorkingPlan } from './floor-plan';
import { floorPlanChanges } from './floor-plan-changes';

export interface PublishDecision {
  plan: PublishedFloorPlan;
  event: DomainEvent;
}

/** Hard ceiling of the wire's 32-bit `version`. */
const MAX_VERSION = 2_147_483_647;

/**
 * Publishing snapshots the working plan as the next version (1 for the first publish,
 * then one more each time) and announces it with `floorplan.published`, whose `changes`
 * say what changed against `previous`, the latest published plan (null before the first
 * publish: every table is added).
 */
export function planPublish(
  working: WorkingPlan,
  previous: PublishedFloorPlan | null,
  now: Instant,
): Outcome<PublishDecision> {
  if (working.rooms.length === 0) {
    return fail('validation_failed', 'the location has no floor plan to publish; import one first');
  }
  const version = (working.publishedVersion ?? 0) + 1;
  if (version > MAX_VERSION) return fail('validation_failed', 'the floor plan version cannot grow further');
  const plan: PublishedFloorPlan = {
    version,
    publishedAt: now,
    rooms: working.rooms.map((room) => publishedRoomShape.copy(room)),
  };
  const event: DomainEvent = {
    type: 'floorplan.published',
    occurredAt: now,
    data: { version, publishedAt: now.toIso(), changes: floorPlanChanges(previous, plan) },
  };
  return ok({ plan, event });
}
