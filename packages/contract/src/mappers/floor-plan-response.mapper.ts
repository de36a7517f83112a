import {
  publishedFloorPlanShape,
  publishedTableShape,
  roomShape,
  type FloorPlanChanges,
  type ImportResult,
  type Instant,
  type PublishedFloorPlan,
  type PublishPreview,
  type Table,
  type WorkingPlan,
} from '@pis/domain';
import type {
  FloorPlanChangesResponse,
  ImportResultResponse,
  PublishPreviewResponse,
  PublishResponse,
  PublishedFloorPlanResponse,
  WorkingPlanResponse,
  WorkingTableResponse,
} from '../wire-types';
import { toNullableIso, WIRE_INSTANTS } from './instant';

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

export const toPublishedFloorPlanResponse = (plan: PublishedFloorPlan): PublishedFloorPlanResponse =>
  publishedFloorPlanShape.encode(plan, WIRE_INSTANTS);

/** A working-plan table as the backoffice sees it (PATCH answers with it): the published fields first. */
export const toTableResponse = (t: Table): WorkingTableResponse => ({
  ...publishedTableShape.encode(t, WIRE_INSTANTS),
  roomId: t.roomId,
  externalId: t.externalId,
});

const roomWithoutTables = roomShape.omit('tables');

export function toWorkingPlanResponse(plan: WorkingPlan): WorkingPlanResponse {
  return {
    status: plan.status,
    publishedVersion: plan.publishedVersion,
    publishedAt: toNullableIso(plan.publishedAt),
    rooms: plan.rooms.map((room) => ({
      ...roomWithoutTables.encode(room, WIRE_INSTANTS),
      tables: room.tables.map(toTableResponse),
    })),
  };
}

export const toPublishResponse = (published: { version: number; publishedAt: Instant }): PublishResponse => ({
  version: published.version,
  publishedAt: published.publishedAt.toIso(),
});

export const toFloorPlanChangesResponse = (c: FloorPlanChanges): FloorPlanChangesResponse => ({
  added: [...c.added],
  deactivated: [...c.deactivated],
  reactivated: [...c.reactivated],
  relabelled: c.relabelled.map((r) => ({ tableId: r.tableId, from: r.from, to: r.to })),
  updated: [...c.updated],
});

export const toPublishPreviewResponse = (preview: PublishPreview): PublishPreviewResponse => ({
  published: preview.published === null ? null : toPublishedFloorPlanResponse(preview.published),
  changes: toFloorPlanChangesResponse(preview.changes),
});
