import { randomUUID } from 'node:crypto';
import type { FloorPlanImportInput, ImportRoomInput, ImportTableInput, Room, Table } from '../../src';

export interface ImportShape {
  rooms?: number;
  tablesPerRoom?: number;
  replaceDraft?: boolean;
}

/**
 * An import body with `rooms` rooms of `tablesPerRoom` tables each. External ids are
 * `room-<r>` and `table-<r>-<t>`; labels `<letter><t>` (A1, A2, ..., B1, ...), so they sort
 * the same in JavaScript and in any database collation.
 */
export function aFloorPlanImport({
  rooms = 1,
  tablesPerRoom = 4,
  replaceDraft = false,
}: ImportShape = {}): FloorPlanImportInput {
  return {
    replaceDraft,
    rooms: Array.from({ length: rooms }, (_, r) => anImportRoom(r, tablesPerRoom)),
  };
}

export function anImportRoom(
  index: number,
  tables: number,
  overrides: Partial<ImportRoomInput> = {},
): ImportRoomInput {
  return {
    externalId: `room-${index + 1}`,
    name: `Room ${index + 1}`,
    order: index,
    tables: Array.from({ length: tables }, (_, t) => anImportTable(index, t)),
    ...overrides,
  };
}

export function anImportTable(
  room: number,
  index: number,
  overrides: Partial<ImportTableInput> = {},
): ImportTableInput {
  return {
    externalId: `table-${room + 1}-${index + 1}`,
    label: `${String.fromCharCode(65 + (room % 26))}${index + 1}`,
    seatCount: 4,
    x: 100 + 50 * (index % 10),
    y: 100 + 50 * Math.floor(index / 10),
    ...overrides,
  };
}

/** A working-plan room record with `tables` tables, fresh UUIDs, for port-level tests. */
export function aRoom(tables: number, overrides: Partial<Omit<Room, 'tables'>> = {}): Room {
  const id = overrides.id ?? randomUUID();
  return {
    id,
    externalId: `room-${id.slice(0, 8)}`,
    name: 'Main room',
    order: 0,
    canvasWidth: 1000,
    canvasHeight: 800,
    decorations: [{ kind: 'bar', x: 10, y: 20, width: 300, height: 40, rotation: 0, text: null }],
    ...overrides,
    tables: Array.from({ length: tables }, (_, t) => aTable(id, { label: `T${t + 1}` })),
  };
}

export function aTable(roomId: string, overrides: Partial<Table> = {}): Table {
  return {
    id: randomUUID(),
    roomId,
    externalId: null,
    label: 'T1',
    shape: 'round',
    seatCount: 4,
    minCovers: 1,
    maxCovers: 4,
    active: true,
    x: 100,
    y: 100,
    rotation: 0,
    ...overrides,
  };
}
