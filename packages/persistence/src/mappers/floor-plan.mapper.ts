import type {
  Decoration,
  DecorationKind,
  FloorPlanStatus,
  PublishedFloorPlan,
  Room,
  Table,
  TableShape,
  WorkingPlan,
} from '@pis/domain';
import { instantFromDb, instantToDb, nullableInstantFromDb } from '../db-instant';
import type { DiningTableRow } from '../schemas/dining-table.schema';
import type { FloorPlanVersionRow, PublishedRoomJson } from '../schemas/floor-plan-version.schema';
import type { FloorPlanRow } from '../schemas/floor-plan.schema';
import type { DecorationJson, RoomRow } from '../schemas/room.schema';

export const roomMapper = {
  /** `tables` are the room's tables, already in the working plan's order. */
  toDomain(row: RoomRow, tables: Table[]): Room {
    return {
      id: row.id,
      externalId: row.external_id,
      name: row.name,
      order: row.sort_order,
      canvasWidth: row.canvas_width,
      canvasHeight: row.canvas_height,
      decorations: row.decorations.map(decorationToDomain),
      tables,
    };
  },
  toPersistence(locationId: string, room: Room): RoomRow {
    return {
      id: room.id,
      location_id: locationId,
      external_id: room.externalId,
      name: room.name,
      sort_order: room.order,
      canvas_width: room.canvasWidth,
      canvas_height: room.canvasHeight,
      decorations: room.decorations.map(decorationToJson),
    };
  },
};

/** The working-plan columns of a table; `published_active` and `open_order_id` belong to others. */
export type TableColumns = Omit<DiningTableRow, 'published_active' | 'open_order_id'>;

export const tableMapper = {
  toDomain(row: TableColumns): Table {
    return {
      id: row.id,
      roomId: row.room_id,
      externalId: row.external_id,
      label: row.label,
      shape: row.shape as TableShape,
      seatCount: row.seat_count,
      minCovers: row.min_covers,
      maxCovers: row.max_covers,
      active: row.active,
      x: row.x,
      y: row.y,
      rotation: row.rotation,
    };
  },
  toPersistence(locationId: string, table: Table): TableColumns {
    return {
      id: table.id,
      location_id: locationId,
      room_id: table.roomId,
      external_id: table.externalId,
      label: table.label,
      shape: table.shape,
      seat_count: table.seatCount,
      min_covers: table.minCovers,
      max_covers: table.maxCovers,
      active: table.active,
      x: table.x,
      y: table.y,
      rotation: table.rotation,
    };
  },
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

export const publishedPlanMapper = {
  toDomain(row: FloorPlanVersionRow): PublishedFloorPlan {
    return {
      version: row.version,
      publishedAt: instantFromDb(row.published_at),
      rooms: row.snapshot.rooms.map((room) => ({
        id: room.id,
        name: room.name,
        order: room.order,
        tables: room.tables.map((t) => ({
          id: t.id,
          label: t.label,
          shape: t.shape as TableShape,
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
  },
  toPersistence(locationId: string, plan: PublishedFloorPlan): FloorPlanVersionRow {
    const rooms: PublishedRoomJson[] = plan.rooms.map((room) => ({
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
    }));
    return {
      location_id: locationId,
      version: plan.version,
      published_at: instantToDb(plan.publishedAt),
      snapshot: { rooms },
    };
  },
};

function decorationToDomain(d: DecorationJson): Decoration {
  return {
    kind: d.kind as DecorationKind,
    x: d.x,
    y: d.y,
    width: d.width,
    height: d.height,
    rotation: d.rotation,
    text: d.text,
  };
}

function decorationToJson(d: Decoration): DecorationJson {
  return {
    kind: d.kind,
    x: d.x,
    y: d.y,
    width: d.width,
    height: d.height,
    rotation: d.rotation,
    text: d.text,
  };
}
