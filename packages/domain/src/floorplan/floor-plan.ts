import type { Instant } from '../kernel/instant';
import { instant, list, shape, value, type Domain } from '../kernel/shape';

export const TABLE_SHAPES = ['round', 'square', 'rectangle'] as const;
export type TableShape = (typeof TABLE_SHAPES)[number];

export const DECORATION_KINDS = ['wall', 'bar', 'plant', 'label', 'zone'] as const;
export type DecorationKind = (typeof DECORATION_KINDS)[number];

export const decorationShape = shape({
  kind: value<DecorationKind>(),
  x: value<number>(),
  y: value<number>(),
  width: value<number>(),
  height: value<number>(),
  rotation: value<number>(),
  text: value<string | null>(),
});
export interface Decoration extends Domain<typeof decorationShape> {}

/**
 * A table of the working plan. Its id never changes and it is never deleted once published.
 * The one list of a table's fields: the published snapshot, the wire forms and the stored
 * forms are derived from it.
 */
export const tableShape = shape({
  id: value<string>(),
  roomId: value<string>(),
  externalId: value<string | null>(),
  label: value<string>(),
  shape: value<TableShape>(),
  seatCount: value<number>(),
  minCovers: value<number>(),
  maxCovers: value<number>(),
  active: value<boolean>(),
  x: value<number>(),
  y: value<number>(),
  /** Degrees in [0, 360). */
  rotation: value<number>(),
});
export interface Table extends Domain<typeof tableShape> {}

export const roomShape = shape({
  id: value<string>(),
  externalId: value<string | null>(),
  name: value<string>(),
  order: value<number>(),
  canvasWidth: value<number>(),
  canvasHeight: value<number>(),
  decorations: list(decorationShape),
  tables: list(tableShape),
});
export interface Room extends Domain<typeof roomShape> {}

/**
 * - `empty`: the location has no rooms;
 * - `draft`: rooms exist and were never published (an import may replace them with `replaceDraft`);
 * - `published`: published at least once; import is closed for good.
 */
export const FLOOR_PLAN_STATUSES = ['empty', 'draft', 'published'] as const;
export type FloorPlanStatus = (typeof FLOOR_PLAN_STATUSES)[number];

export interface WorkingPlan {
  locationId: string;
  status: FloorPlanStatus;
  /** Latest published version, null before the first publish. */
  publishedVersion: number | null;
  publishedAt: Instant | null;
  /** Ordered by `order`, then id; tables by label, then id. */
  rooms: Room[];
}

/** What a published snapshot keeps of a working-plan table: all but where it belongs. */
export const publishedTableShape = tableShape.omit('roomId', 'externalId');
export interface PublishedTable extends Domain<typeof publishedTableShape> {}

export const publishedRoomShape = shape({
  id: value<string>(),
  name: value<string>(),
  order: value<number>(),
  tables: list(publishedTableShape),
});
export interface PublishedRoom extends Domain<typeof publishedRoomShape> {}

/** An immutable snapshot of the working plan taken at publish time. */
export const publishedFloorPlanShape = shape({
  version: value<number>(),
  publishedAt: instant(),
  rooms: list(publishedRoomShape),
});
export interface PublishedFloorPlan extends Domain<typeof publishedFloorPlanShape> {}

/** A table as an import sends it; `withImportDefaults` fills what it leaves out. */
export interface ImportTableInput {
  externalId: string;
  label: string;
  seatCount: number;
  x: number;
  y: number;
  minCovers?: number;
  maxCovers?: number;
  rotation?: number;
  shape?: TableShape;
}

export interface ImportDecorationInput {
  kind: DecorationKind;
  x: number;
  y: number;
  width: number;
  height: number;
  rotation?: number;
  text?: string | null;
}

export interface ImportRoomInput {
  externalId: string;
  name: string;
  order?: number;
  canvasWidth?: number;
  canvasHeight?: number;
  tables: ImportTableInput[];
  decorations?: ImportDecorationInput[];
}

/** The import body, shape-validated at the edge; the domain fills its defaults (`withImportDefaults`). */
export interface FloorPlanImportInput {
  rooms: ImportRoomInput[];
  replaceDraft: boolean;
}

/** The import as a request may send it: a room may leave out its tables, the body `replaceDraft`. */
export interface ImportAsSent {
  rooms: (Omit<ImportRoomInput, 'tables'> & { tables?: ImportTableInput[] })[];
  replaceDraft?: boolean;
}

/** The import with every default filled; what planning reads. */
export interface CompleteImport extends FloorPlanImportInput {
  rooms: CompleteImportRoom[];
}

export interface CompleteImportRoom extends Required<Omit<ImportRoomInput, 'tables' | 'decorations'>> {
  tables: Required<ImportTableInput>[];
  decorations: (Required<Omit<ImportDecorationInput, 'text'>> & Pick<ImportDecorationInput, 'text'>)[];
}

export interface ImportResult {
  rooms: { externalRoomId: string; roomId: string; name: string }[];
  mapping: { externalTableId: string; tableId: string; label: string }[];
}

export interface TablePatch {
  label?: string;
  active?: boolean;
  x?: number;
  y?: number;
  rotation?: number;
  shape?: TableShape;
  seatCount?: number;
  minCovers?: number;
  maxCovers?: number;
}
