import type {
  Decoration,
  ImportResult,
  Instant,
  PublishedFloorPlan,
  PublishedTable,
  Table,
  WorkingPlan,
} from '@pis/domain';
import type {
  ImportResultResponse,
  PublishResponse,
  PublishedFloorPlanResponse,
  WorkingPlanResponse,
  WorkingTableResponse,
} from '../wire-types';
import { toNullableIso } from './instant';

export function toImportResultResponse(result: ImportResult): ImportResultResponse {
  return {
    rooms: result.rooms.map((r) => ({ externalRoomId: r.externalRoomId, roomId: r.roomId, name: r.name })),
    mapping: result.mapping.map((m) => ({
      externalTableId: m.externalTableId,
      tableId: m.tableId,
      label: m.label,
    })),
  };
}

const publishedTable = (t: PublishedTable) => ({
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
});

export function toPublishedFloorPlanResponse(plan: PublishedFloorPlan): PublishedFloorPlanResponse {
  return {
    version: plan.version,
    publishedAt: plan.publishedAt.toIso(),
    rooms: plan.rooms.map((room) => ({
      id: room.id,
      name: room.name,
      order: room.order,
      tables: room.tables.map(publishedTable),
    })),
  };
}

/** A working-plan table as the backoffice sees it (PATCH answers with it). */
export function toTableResponse(t: Table): WorkingTableResponse {
  return { ...publishedTable(t), roomId: t.roomId, externalId: t.externalId };
}

const decoration = (d: Decoration) => ({
  kind: d.kind,
  x: d.x,
  y: d.y,
  width: d.width,
  height: d.height,
  rotation: d.rotation,
  text: d.text,
});

export function toWorkingPlanResponse(plan: WorkingPlan): WorkingPlanResponse {
  return {
    status: plan.status,
    publishedVersion: plan.publishedVersion,
    publishedAt: toNullableIso(plan.publishedAt),
    rooms: plan.rooms.map((room) => ({
      id: room.id,
      externalId: room.externalId,
      name: room.name,
      order: room.order,
      canvasWidth: room.canvasWidth,
      canvasHeight: room.canvasHeight,
      decorations: room.decorations.map(decoration),
      tables: room.tables.map(toTableResponse),
    })),
  };
}

export const toPublishResponse = (published: { version: number; publishedAt: Instant }): PublishResponse => ({
  version: published.version,
  publishedAt: published.publishedAt.toIso(),
});
