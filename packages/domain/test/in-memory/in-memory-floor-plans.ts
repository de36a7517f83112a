import {
  lockOrder,
  type FloorPlanQueries,
  type FloorPlanRepository,
  type PublishedFloorPlan,
  type PublishedTables,
  type Room,
  type Table,
  type WorkingPlan,
} from '../../src';
import { detach } from './detach';
import { compareIds, type Draft, type PlanState, type Reader } from './state';

const NO_PLAN: PlanState = { rooms: [], published: null };

export class InMemoryFloorPlanRepository implements FloorPlanRepository {
  constructor(private readonly draft: Draft) {}

  async lockWorkingPlan(locationId: string): Promise<WorkingPlan> {
    return workingPlanOf(this.draft, locationId);
  }

  async replaceDraft(locationId: string, rooms: Room[]): Promise<void> {
    const plan = this.plan(locationId);
    if (plan.published !== null)
      throw new Error(`the plan of location ${locationId} was published; it is no draft`);
    for (const room of rooms) {
      const stray = room.tables.find((t) => t.roomId !== room.id);
      if (stray)
        throw new Error(`table ${stray.id} names room ${stray.roomId} but is stored in room ${room.id}`);
    }
    this.draft.put('plans', locationId, { rooms: detach(rooms), published: null });
  }

  async saveTable(locationId: string, table: Table): Promise<void> {
    const plan = this.plan(locationId);
    const room = plan.rooms.find((r) => r.id === table.roomId);
    if (!room?.tables.some((t) => t.id === table.id)) {
      throw new Error(
        `the working plan of location ${locationId} has no table ${table.id} in room ${table.roomId}`,
      );
    }
    const rooms = plan.rooms.map((r) =>
      r === room ? { ...r, tables: r.tables.map((t) => (t.id === table.id ? detach(table) : t)) } : r,
    );
    this.draft.put('plans', locationId, { ...plan, rooms });
  }

  async latestPublished(locationId: string): Promise<PublishedFloorPlan | null> {
    const published = this.plan(locationId).published;
    return published === null ? null : detach(published);
  }

  async savePublished(locationId: string, published: PublishedFloorPlan): Promise<void> {
    this.draft.put('plans', locationId, { ...this.plan(locationId), published: detach(published) });
  }

  async publishedTables(locationId: string, tableIds: string[]): Promise<PublishedTables | null> {
    const published = this.plan(locationId).published;
    if (published === null) return null;
    const wanted = new Set(lockOrder(tableIds));
    const tables = published.rooms
      .flatMap((room) => room.tables)
      .filter((t) => wanted.has(t.id))
      .map((t) => ({ id: t.id, active: t.active }))
      .sort((a, b) => compareIds(a.id, b.id));
    return { version: published.version, tables };
  }

  private plan(locationId: string): PlanState {
    return this.draft.get('plans', locationId) ?? NO_PLAN;
  }
}

export class InMemoryFloorPlanQueries implements FloorPlanQueries {
  constructor(private readonly read: () => Reader) {}

  async latestPublished(locationId: string): Promise<PublishedFloorPlan | null> {
    return detach(this.read().map('plans').get(locationId)?.published ?? null);
  }

  async workingPlan(locationId: string): Promise<WorkingPlan> {
    return workingPlanOf(this.read(), locationId);
  }
}

/** Rooms by order then id, tables by label then id (the port's promise). */
function workingPlanOf(reader: Reader, locationId: string): WorkingPlan {
  const { rooms, published } = reader.map('plans').get(locationId) ?? NO_PLAN;
  return {
    locationId,
    status: published !== null ? 'published' : rooms.length > 0 ? 'draft' : 'empty',
    publishedVersion: published?.version ?? null,
    publishedAt: published?.publishedAt ?? null,
    rooms: [...rooms]
      .sort((a, b) => a.order - b.order || compareIds(a.id, b.id))
      .map((room) => ({
        ...detach(room),
        tables: [...room.tables]
          .sort((a, b) => compareIds(a.label, b.label) || compareIds(a.id, b.id))
          .map(detach),
      })),
  };
}
