import {
  publishedFloorPlanShape,
  type FloorPlanStatus,
  type PublishedFloorPlan,
  type Room,
  type Table,
  type WorkingPlan,
} from '@pis/domain';
import { nullableInstantFromDb } from '../db-instant';
import { tableColumns, type DiningTableRow } from '../schemas/dining-table.schema';
import type { FloorPlanVersionRow } from '../schemas/floor-plan-version.schema';
import type { FloorPlanRow } from '../schemas/floor-plan.schema';
import { roomColumns, type RoomRow } from '../schemas/room.schema';
import { STORED_INSTANTS } from '../stored-form';

/** A location's rows lead with their id and location, in the column order of the tables. */
function scoped<Row extends { id: string }>(locationId: string, row: Row) {
  const { id, ...rest } = row;
  return { id, location_id: locationId, ...rest };
}

export const roomMapper = {
  /** `tables` are the room's tables, already in the working plan's order. */
  toDomain: (row: RoomRow, tables: Table[]): Room => ({ ...roomColumns.fromRow(row), tables }),
  toPersistence: (locationId: string, room: Room): RoomRow => scoped(locationId, roomColumns.toRow(room)),
};

/** The working-plan columns of a table; `published_active` and `open_order_id` belong to others. */
export type TableColumns = Omit<DiningTableRow, 'published_active' | 'open_order_id'>;

export const tableMapper = {
  toDomain: (row: TableColumns): Table => tableColumns.fromRow(row),
  toPersistence: (locationId: string, table: Table): TableColumns =>
    scoped(locationId, tableColumns.toRow(table)),
};

/** Rooms in (order, id) order with their tables in (label, id) order, as the database sorted them. */
export function workingPlanToDomain(
  locationId: string,
  plan: FloorPlanRow | null,
  rooms: RoomRow[],
  tables: TableColumns[],
): WorkingPlan {
  const byRoom = new Map<string, Table[]>(rooms.map((r) => [r.id, []]));
  for (const row of tables) byRoom.get(row.room_id)?.push(tableMapper.toDomain(row));
  const publishedVersion = plan?.published_version ?? null;
  const status: FloorPlanStatus =
    publishedVersion !== null ? 'published' : rooms.length > 0 ? 'draft' : 'empty';
  return {
    locationId,
    status,
    publishedVersion,
    publishedAt: nullableInstantFromDb(plan?.published_at ?? null),
    rooms: rooms.map((r) => roomMapper.toDomain(r, byRoom.get(r.id) ?? [])),
  };
}

/** The version and its instant are columns; the rooms are the jsonb snapshot. */
export const publishedPlanMapper = {
  toDomain: (row: FloorPlanVersionRow): PublishedFloorPlan =>
    publishedFloorPlanShape.decode(
      { version: row.version, publishedAt: row.published_at, rooms: row.snapshot.rooms },
      STORED_INSTANTS,
    ),
  toPersistence(locationId: string, plan: PublishedFloorPlan): FloorPlanVersionRow {
    const { version, publishedAt, rooms } = publishedFloorPlanShape.encode(plan, STORED_INSTANTS);
    return { location_id: locationId, version, published_at: publishedAt, snapshot: { rooms } };
  },
};
