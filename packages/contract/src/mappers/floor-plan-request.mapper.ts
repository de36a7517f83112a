import {
  DEFAULT_CANVAS_SIZE,
  defaultShape,
  type FloorPlanImportInput,
  type ImportDecorationInput,
  type TablePatch,
} from '@pis/domain';
import type { FloorPlanImportRequest, TablePatchRequest } from '../wire-types';

/**
 * The validated import body with every default filled (decisions section 6): room order =
 * its index, canvas 1000 by 1000, no tables or decorations, rotation 0, minCovers 1,
 * maxCovers = seatCount, shape by seat count. Duplicate ids, `minCovers <= maxCovers` and
 * table positions are the domain's checks.
 */
export function toImportInput(body: FloorPlanImportRequest): FloorPlanImportInput {
  return {
    replaceDraft: body.replaceDraft ?? false,
    rooms: body.rooms.map((room, index) => ({
      externalId: room.externalId,
      name: room.name,
      order: room.order ?? index,
      canvasWidth: room.canvasWidth ?? DEFAULT_CANVAS_SIZE,
      canvasHeight: room.canvasHeight ?? DEFAULT_CANVAS_SIZE,
      tables: (room.tables ?? []).map((t) => ({
        externalId: t.externalId,
        label: t.label,
        seatCount: t.seatCount,
        x: t.x,
        y: t.y,
        minCovers: t.minCovers ?? 1,
        maxCovers: t.maxCovers ?? t.seatCount,
        rotation: t.rotation ?? 0,
        shape: t.shape ?? defaultShape(t.seatCount),
      })),
      decorations: (room.decorations ?? []).map((d) => {
        const decoration: ImportDecorationInput = {
          kind: d.kind,
          x: d.x,
          y: d.y,
          width: d.width,
          height: d.height,
          rotation: d.rotation ?? 0,
        };
        if (typeof d.text === 'string') decoration.text = d.text;
        return decoration;
      }),
    })),
  };
}

/** Only the fields the operator sent; the rest of the table stays as it is. */
export function toTablePatch(body: TablePatchRequest): TablePatch {
  const patch: TablePatch = {};
  if (body.label !== undefined) patch.label = body.label;
  if (body.active !== undefined) patch.active = body.active;
  if (body.x !== undefined) patch.x = body.x;
  if (body.y !== undefined) patch.y = body.y;
  if (body.rotation !== undefined) patch.rotation = body.rotation;
  if (body.shape !== undefined) patch.shape = body.shape;
  if (body.seatCount !== undefined) patch.seatCount = body.seatCount;
  if (body.minCovers !== undefined) patch.minCovers = body.minCovers;
  if (body.maxCovers !== undefined) patch.maxCovers = body.maxCovers;
  return patch;
}
