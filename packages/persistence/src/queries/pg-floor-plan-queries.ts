import type { FloorPlanQueries, PublishedFloorPlan, WorkingPlan } from '@pis/domain';
import type { FloorPlanRow } from '../schemas/floor-plan.schema';
import type { Database } from '../db/database';
import { EMPTY_PLAN, readLatestPublished, readWorkingPlan } from '../orders-and-tables/floor-plan-reads';
import { isUuid } from '../adapters/uuid';

export class PgFloorPlanQueries implements FloorPlanQueries {
  constructor(private readonly db: Database) {}

  async latestPublished(locationId: string): Promise<PublishedFloorPlan | null> {
    if (!isUuid(locationId)) return null;
    return this.db.read((sql) => readLatestPublished(sql, locationId), { location: locationId });
  }

  /** The plan row, rooms and tables from one snapshot, so a concurrent import is seen whole or not at all. */
  async workingPlan(locationId: string): Promise<WorkingPlan> {
    if (!isUuid(locationId)) return EMPTY_PLAN(locationId);
    return this.db.snapshot(
      async (sql) => {
        const plan = await sql.first<FloorPlanRow>(`SELECT * FROM floor_plans WHERE location_id = $1`, [
          locationId,
        ]);
        return readWorkingPlan(sql, locationId, plan);
      },
      { location: locationId },
    );
  }
}
