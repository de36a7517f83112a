import {
  planPublish,
  type Location,
  type PublishedFloorPlan,
  type Room,
  type Transaction,
  type UnitOfWork,
} from '@pis/domain';
import { aRoom } from '@pis/domain/test-support';
import { at } from '@pis/domain/test-support';
import { aLocation } from '@pis/domain/test-support';
import { commit } from './adapter-set';

/** A fresh location, committed. */
export async function givenLocationRow(
  uow: UnitOfWork,
  overrides: Partial<Location> = {},
): Promise<Location> {
  const location = aLocation(overrides);
  await commit(uow, (tx) => tx.locations.insert(location));
  return location;
}

/** A fresh location with a draft plan of one room holding `tables` tables; returns their ids. */
export async function givenDraftTables(
  uow: UnitOfWork,
  tables: number,
): Promise<{ location: Location; room: Room; tableIds: string[] }> {
  const location = await givenLocationRow(uow);
  const room = aRoom(tables);
  await commit(uow, (tx) => tx.floorPlans.replaceDraft(location.id, [room]));
  return { location, room, tableIds: room.tables.map((t) => t.id) };
}

/** Publishes the working plan as the domain would: the snapshot of what the working plan holds. */
export async function publishWorkingPlan(
  tx: Transaction,
  locationId: string,
  now = at('2026-11-21T12:00:00.123456Z'),
): Promise<PublishedFloorPlan> {
  const decision = planPublish(
    await tx.floorPlans.lockWorkingPlan(locationId),
    await tx.floorPlans.latestPublished(locationId),
    now,
  );
  if (!decision.ok) throw new Error(`cannot publish: ${decision.message}`);
  await tx.floorPlans.savePublished(locationId, decision.value.plan);
  return decision.value.plan;
}
