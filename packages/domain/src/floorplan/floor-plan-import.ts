import { fail, ok, type Outcome, type ValidationDetail } from '../kernel/outcome';
import {
  roomShape,
  type CompleteImport,
  type FloorPlanImportInput,
  type ImportAsSent,
  type ImportResult,
  type Room,
  type TableShape,
  type WorkingPlan,
} from './floor-plan';

export const DEFAULT_CANVAS_SIZE = 1000;

/** `round` up to four seats, `rectangle` above (docs/reference/provider-api.md#floor-plan-import-fields). */
export function defaultShape(seatCount: number): TableShape {
  return seatCount <= 4 ? 'round' : 'rectangle';
}

/**
 * Degrees normalised into [0, 360). Never -0: the last `%` has a positive dividend, since
 * `degrees % 360` lies in (-360, 360).
 */
export function normaliseRotation(degrees: number): number {
  return ((degrees % 360) + 360) % 360;
}

/**
 * The one place the import's defaults are filled (docs/reference/provider-api.md#floor-plan-import-fields): a room's order is
 * its index, its canvas DEFAULT_CANVAS_SIZE by DEFAULT_CANVAS_SIZE, it has no tables or
 * decorations; a table's minCovers is 1, its maxCovers its seatCount, its rotation 0 and
 * its shape by seat count (`defaultShape`); a decoration's rotation is 0; `replaceDraft`
 * is false. Filling twice changes nothing, so the contract's mapper and `planImport` may
 * both call it. Rotations are normalised into [0, 360) by `planImport` alone, once:
 * normalising an already normalised float can move it by a rounding step.
 */
export function withImportDefaults(input: ImportAsSent): CompleteImport {
  return {
    replaceDraft: input.replaceDraft ?? false,
    rooms: input.rooms.map((room, index) => ({
      ...room,
      order: room.order ?? index,
      canvasWidth: room.canvasWidth ?? DEFAULT_CANVAS_SIZE,
      canvasHeight: room.canvasHeight ?? DEFAULT_CANVAS_SIZE,
      tables: (room.tables ?? []).map((t) => ({
        ...t,
        minCovers: t.minCovers ?? 1,
        maxCovers: t.maxCovers ?? t.seatCount,
        rotation: t.rotation ?? 0,
        shape: t.shape ?? defaultShape(t.seatCount),
      })),
      decorations: (room.decorations ?? []).map((d) => ({ ...d, rotation: d.rotation ?? 0 })),
    })),
  };
}

export interface ImportPlan {
  rooms: Room[];
  result: ImportResult;
}

/**
 * Decides a floor plan import against the working plan: the lifecycle (first import,
 * `replaceDraft` over a never-published draft, closed for good after the first publish)
 * and the import's domain rules (checked first). Returns the rooms to store, with new ids, and the mapping.
 */
export function planImport(
  working: WorkingPlan,
  input: FloorPlanImportInput,
  newId: () => string,
): Outcome<ImportPlan> {
  const complete = withImportDefaults(input);
  // The body answers before the state, as for reservation writes.
  const problems = importProblems(complete);
  if (problems.length > 0) return fail('validation_failed', problems[0]!.message, problems);
  if (working.status === 'published') {
    return fail(
      'draft_not_empty',
      'the floor plan has been published: import is closed for good; corrections are made in the backoffice editor',
    );
  }
  if (working.status === 'draft' && !complete.replaceDraft) {
    return fail(
      'draft_not_empty',
      'the location already has a draft floor plan; send replaceDraft: true to overwrite it',
    );
  }

  const rooms: Room[] = complete.rooms.map((room) => {
    const roomId = newId();
    return roomShape.copy({
      ...room,
      id: roomId,
      decorations: room.decorations.map((d) => ({
        ...d,
        rotation: normaliseRotation(d.rotation),
        text: d.text ?? null,
      })),
      tables: room.tables.map((t) => ({
        ...t,
        id: newId(),
        roomId,
        active: true,
        rotation: normaliseRotation(t.rotation),
      })),
    });
  });
  return ok({
    rooms,
    result: {
      rooms: rooms.map((r) => ({ externalRoomId: r.externalId!, roomId: r.id, name: r.name })),
      mapping: rooms.flatMap((r) =>
        r.tables.map((t) => ({ externalTableId: t.externalId!, tableId: t.id, label: t.label })),
      ),
    },
  });
}

/** Unique room and table externalIds, `minCovers <= maxCovers`, table centres inside the canvas. */
function importProblems(input: CompleteImport): ValidationDetail[] {
  const problems: ValidationDetail[] = [];
  const roomIds = new Set<string>();
  const tableIds = new Set<string>();
  input.rooms.forEach((room, r) => {
    if (roomIds.has(room.externalId)) {
      problems.push({
        path: `/rooms/${r}/externalId`,
        message: `duplicate room externalId ${room.externalId}`,
      });
    }
    roomIds.add(room.externalId);
    room.tables.forEach((table, t) => {
      const at = `/rooms/${r}/tables/${t}`;
      if (tableIds.has(table.externalId)) {
        problems.push({
          path: `${at}/externalId`,
          message: `duplicate table externalId ${table.externalId}`,
        });
      }
      tableIds.add(table.externalId);
      if (table.minCovers > table.maxCovers) {
        problems.push({
          path: `${at}/minCovers`,
          message: `minCovers ${table.minCovers} exceeds maxCovers ${table.maxCovers}`,
        });
      }
      problems.push(...positionProblems(at, table, room.canvasWidth, room.canvasHeight));
    });
  });
  return problems;
}

/** A table's centre lies within its room's canvas, edges included (the footprint may overhang). */
export function positionProblems(
  at: string,
  position: { x: number; y: number },
  width: number,
  height: number,
): ValidationDetail[] {
  const problems: ValidationDetail[] = [];
  if (position.x < 0 || position.x > width) {
    problems.push({ path: `${at}/x`, message: `x ${position.x} lies outside the canvas width 0-${width}` });
  }
  if (position.y < 0 || position.y > height) {
    problems.push({ path: `${at}/y`, message: `y ${position.y} lies outside the canvas height 0-${height}` });
  }
  return problems;
}
