import type { DomainEvent } from '../events/domain-event';
import type { Instant } from '../shared/instant';
import { fail, ok, type Outcome } from '../shared/outcome';
import type { PublishedFloorPlan, WorkingPlan } from './floor-plan';

export interface PublishDecision {
  plan: PublishedFloorPlan;
  event: DomainEvent;
}

/** Hard ceiling of the wire's 32-bit `version`. */
const MAX_VERSION = 2_147_483_647;

/**
 * Publishing snapshots the working plan as the next version (1 for the first publish,
 * then one more each time) and announces it with `floorplan.published`.
 */
export function planPublish(working: WorkingPlan, now: Instant): Outcome<PublishDecision> {
  if (working.rooms.length === 0) {
    return fail('validation_failed', 'the location has no floor plan to publish; import one first');
  }
  const version = (working.publishedVersion ?? 0) + 1;
  if (version > MAX_VERSION) return fail('validation_failed', 'the floor plan version cannot grow further');
  const plan: PublishedFloorPlan = {
    version,
    publishedAt: now,
    rooms: working.rooms.map((room) => ({
      id: room.id,
      name: room.name,
      order: room.order,
      tables: room.tables.map((t) => ({
        id: t.id,
        label: t.label,
        shape: t.shape,
        seatCount: t.seatCount,
        minCovers: t.minCovers,
        maxCovers: t.maxCovers,
        active: t.active,
        x: t.x,
        y: t.y,
        rotation: t.rotation,
      })),
    })),
  };
  const event: DomainEvent = {
    type: 'floorplan.published',
    occurredAt: now,
    data: { version, publishedAt: now.toIso() },
  };
  return ok({ plan, event });
}
