import type { PublishedFloorPlan, WorkingPlan } from '@pis/domain';
import { publishedPlanMapper, workingPlanToDomain, type TableColumns } from '../mappers/floor-plan.mapper';
import type { FloorPlanVersionRow } from '../schemas/floor-plan-version.schema';
import type { FloorPlanRow } from '../schemas/floor-plan.schema';
import type { RoomRow } from '../schemas/room.schema';
import type { ReadSql } from '../db/sql';

/**
 * Rooms by (order, id), tables by (label, id). Labels compare in the "C" collation, byte
 * order, which is how the domain and the in-memory adapters compare strings.
 */
export async function readWorkingPlan(
  sql: ReadSql,
  locationId: string,
  plan: FloorPlanRow | null,
): Promise<WorkingPlan> {
  const rooms = await sql.rows<RoomRow>(
    `SELECT * FROM rooms WHERE location_id = $1 ORDER BY sort_order, id`,
    [locationId],
  );
  const tables =
    rooms.length === 0
      ? []
      : await sql.rows<TableColumns>(
          `SELECT id, location_id, room_id, external_id, label, shape, seat_count, min_covers, max_covers,
                  active, x, y, rotation
           FROM dining_tables WHERE location_id = $1 ORDER BY label COLLATE "C", id`,
          [locationId],
        );
  return workingPlanToDomain(locationId, plan, rooms, tables);
}

export const EMPTY_PLAN = (locationId: string): WorkingPlan => ({
  locationId,
  status: 'empty',
  publishedVersion: null,
  publishedAt: null,
  rooms: [],
});

/** The latest published version of the location's plan, or null before the first publish. */
export async function readLatestPublished(
  sql: ReadSql,
  locationId: string,
): Promise<PublishedFloorPlan | null> {
  const row = await sql.first<FloorPlanVersionRow>(
    `SELECT * FROM floor_plan_versions WHERE location_id = $1 ORDER BY version DESC LIMIT 1`,
    [locationId],
  );
  return row === null ? null : publishedPlanMapper.toDomain(row);
}
