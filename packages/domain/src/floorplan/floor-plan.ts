import type { Instant } from '../shared/instant';

export const TABLE_SHAPES = ['round', 'square', 'rectangle'] as const;
export type TableShape = (typeof TABLE_SHAPES)[number];

export const DECORATION_KINDS = ['wall', 'bar', 'plant', 'label', 'zone'] as const;
export type DecorationKind = (typeof DECORATION_KINDS)[number];

export interface Decoration {
  kind: DecorationKind;
  x: number;
  y: number;
  width: number;
  height: number;
  rotation: number;
  text: string | null;
}

/** A table of the working plan. Its id never changes and it is never deleted once published. */
export interface Table {
  id: string;
  roomId: string;
  externalId: string | null;
  label: string;
  shape: TableShape;
  seatCount: number;
  minCovers: number;
  maxCovers: number;
  active: boolean;
  x: number;
  y: number;
  /** Degrees in [0, 360). */
  rotation: number;
}

export interface Room {
  id: string;
  externalId: string | null;
  name: string;
  order: number;
  canvasWidth: number;
  canvasHeight: number;
  decorations: Decoration[];
  tables: Table[];
}

/**
 * - `empty`: the location has no rooms;
 * - `draft`: rooms exist and were never published (an import may replace them with `replaceDraft`);
 * - `published`: published at least once; import is closed for good.
 */
export type FloorPlanStatus = 'empty' | 'draft' | 'published';

export interface WorkingPlan {
  locationId: string;
  status: FloorPlanStatus;
  /** Latest published version, null before the first publish. */
  publishedVersion: number | null;
  publishedAt: Instant | null;
  /** Ordered by `order`, then id; tables by label, then id. */
  rooms: Room[];
}

/** The fields of a working-plan table that a published snapshot keeps. */
export interface PublishedTable {
  id: string;
  label: string;
  shape: TableShape;
  seatCount: number;
  minCovers: number;
  maxCovers: number;
  active: boolean;
  x: number;
  y: number;
  rotation: number;
}

export interface PublishedRoom {
  id: string;
  name: string;
  order: number;
  tables: PublishedTable[];
}

/** An immutable snapshot of the working plan taken at publish time. */
export interface PublishedFloorPlan {
  version: number;
  publishedAt: Instant;
  rooms: PublishedRoom[];
}

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
  text?: string;
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

/** The import body, shape-validated at the edge; defaults are the domain's to fill. */
export interface FloorPlanImportInput {
  rooms: ImportRoomInput[];
  replaceDraft: boolean;
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
