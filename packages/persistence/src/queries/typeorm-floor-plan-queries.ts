import type { FloorPlanQueries, PublishedFloorPlan, WorkingPlan } from '@pis/domain';
import { publishedPlanMapper } from '../mappers/floor-plan.mapper';
import type { FloorPlanVersionRow } from '../schemas/floor-plan-version.schema';
import type { FloorPlanRow } from '../schemas/floor-plan.schema';
import type { DbSession } from '../adapters/db-session';
import { EMPTY_PLAN, readWorkingPlan } from '../adapters/floor-plan-reads';
import { isUuid } from '../adapters/uuid';

export class TypeormFloorPlanQueries implements FloorPlanQueries {
  constructor(private readonly session: DbSession) {}

  async latestPublished(locationId: string): Promise<PublishedFloorPlan | null> {
    if (!isUuid(locationId)) return null;
    const row = await this.session.read((sql) =>
      sql.first<FloorPlanVersionRow>(
        `SELECT * FROM floor_plan_versions WHERE location_id = $1 ORDER BY version DESC LIMIT 1`,
        [locationId],
      ),
    );
    return row === null ? null : publishedPlanMapper.toDomain(row);
  }

  /** The plan row, rooms and tables from one snapshot, so a concurrent import is seen whole or not at all. */
  async workingPlan(locationId: string): Promise<WorkingPlan> {
    if (!isUuid(locationId)) return EMPTY_PLAN(locationId);
    return this.session.snapshot(async (sql) => {
      const plan = await sql.first<FloorPlanRow>(`SELECT * FROM floor_plans WHERE location_id = $1`, [
        locationId,
      ]);
      return readWorkingPlan(sql, locationId, plan);
    });
  }
}
