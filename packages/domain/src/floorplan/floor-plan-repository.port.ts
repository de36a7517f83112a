import type { PublishedFloorPlan, Room, Table, WorkingPlan } from './floor-plan';

export interface PublishedTableState {
  id: string;
  active: boolean;
}

/** Used inside a unit of work; every method is scoped to one location. */
export interface FloorPlanRepository {
  /**
   * Reads the working plan and locks the location's plan for the rest of the transaction,
   * so imports, publishes and table edits of one location serialise.
   */
  lockWorkingPlan(locationId: string): Promise<WorkingPlan>;
  /** Replaces every room, table and decoration of a never-published plan. */
  replaceDraft(locationId: string, rooms: Room[]): Promise<void>;
  /** Saves one table of the working plan (insert-or-update by id; never deletes). */
  saveTable(locationId: string, table: Table): Promise<void>;
  /** Stores the snapshot as the latest published plan. */
  savePublished(locationId: string, plan: PublishedFloorPlan): Promise<void>;
  /** Tables of the latest published plan among `tableIds` (unknown ids are absent). */
  findPublishedTables(locationId: string, tableIds: string[]): Promise<PublishedTableState[]>;
  /** Latest published version, null before the first publish. */
  publishedVersion(locationId: string): Promise<number | null>;
}

/** Read side, outside any transaction. */
export interface FloorPlanQueries {
  latestPublished(locationId: string): Promise<PublishedFloorPlan | null>;
  workingPlan(locationId: string): Promise<WorkingPlan>;
}
