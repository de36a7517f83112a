import { fail, ok, type Outcome, type ValidationDetail } from '../shared/outcome';
import type {
  Decoration,
  FloorPlanImportInput,
  ImportResult,
  Room,
  Table,
  TableShape,
  WorkingPlan,
} from './floor-plan';

export const DEFAULT_CANVAS_SIZE = 1000;

/** `round` up to four seats, `rectangle` above (decisions section 6). */
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
  // The body answers before the state, as for reservation writes.
  const problems = importProblems(input);
  if (problems.length > 0) return fail('validation_failed', problems[0]!.message, problems);
  if (working.status === 'published') {
    return fail(
      'draft_not_empty',
      'the floor plan has been published: import is closed for good; corrections are made in the backoffice editor',
    );
  }
  if (working.status === 'draft' && !input.replaceDraft) {
    return fail(
      'draft_not_empty',
      'the location already has a draft floor plan; send replaceDraft: true to overwrite it',
    );
  }

  const rooms: Room[] = input.rooms.map((room, index) => {
    const roomId = newId();
    return {
      id: roomId,
      externalId: room.externalId,
      name: room.name,
      order: room.order ?? index,
      canvasWidth: room.canvasWidth ?? DEFAULT_CANVAS_SIZE,
      canvasHeight: room.canvasHeight ?? DEFAULT_CANVAS_SIZE,
      decorations: (room.decorations ?? []).map((d): Decoration => ({
        kind: d.kind,
        x: d.x,
        y: d.y,
        width: d.width,
        height: d.height,
        rotation: normaliseRotation(d.rotation ?? 0),
        text: d.text ?? null,
      })),
      tables: room.tables.map((t): Table => ({
        id: newId(),
        roomId,
        externalId: t.externalId,
        label: t.label,
        shape: t.shape ?? defaultShape(t.seatCount),
        seatCount: t.seatCount,
        minCovers: t.minCovers ?? 1,
        maxCovers: t.maxCovers ?? t.seatCount,
        active: true,
        x: t.x,
        y: t.y,
        rotation: normaliseRotation(t.rotation ?? 0),
      })),
    };
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
function importProblems(input: FloorPlanImportInput): ValidationDetail[] {
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
    const width = room.canvasWidth ?? DEFAULT_CANVAS_SIZE;
    const height = room.canvasHeight ?? DEFAULT_CANVAS_SIZE;
    room.tables.forEach((table, t) => {
      const at = `/rooms/${r}/tables/${t}`;
      if (tableIds.has(table.externalId)) {
        problems.push({
          path: `${at}/externalId`,
          message: `duplicate table externalId ${table.externalId}`,
        });
      }
      tableIds.add(table.externalId);
      const min = table.minCovers ?? 1;
      const max = table.maxCovers ?? table.seatCount;
      if (min > max) {
        problems.push({ path: `${at}/minCovers`, message: `minCovers ${min} exceeds maxCovers ${max}` });
      }
      problems.push(...positionProblems(at, table, width, height));
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
