import type { PublishedFloorPlan, Room, Table, WorkingPlan } from './floor-plan';

/** A table of the latest published plan, as reservation writes and walk-ins check it. */
export interface PublishedTableState {
  id: string;
  active: boolean;
}

export interface PublishedTables {
  version: number;
  /** The requested ids that the latest published plan holds; unknown ids are absent. */
  tables: PublishedTableState[];
}

/** Used inside a unit of work; every method is scoped to one location. */
export interface FloorPlanRepository {
  /**
   * Reads the working plan and locks the location's plan for the rest of the transaction,
   * so imports, publishes and table edits of one location serialise.
   */
  lockWorkingPlan(locationId: string): Promise<WorkingPlan>;
  /** Replaces every room, table and decoration of a plan that was never published. */
  replaceDraft(locationId: string, rooms: Room[]): Promise<void>;
  /** Saves one existing table of the working plan. */
  saveTable(locationId: string, table: Table): Promise<void>;
  /** The latest published plan (null before the first publish); read after `lockWorkingPlan`, it cannot change meanwhile. */
  latestPublished(locationId: string): Promise<PublishedFloorPlan | null>;
  /** Stores the snapshot as the latest published plan. */
  savePublished(locationId: string, plan: PublishedFloorPlan): Promise<void>;
  /** The given tables in the latest published plan; null before the first publish. */
  publishedTables(locationId: string, tableIds: string[]): Promise<PublishedTables | null>;
}

/** Read side, outside any transaction. */
export interface FloorPlanQueries {
  latestPublished(locationId: string): Promise<PublishedFloorPlan | null>;
  workingPlan(locationId: string): Promise<WorkingPlan>;
}
