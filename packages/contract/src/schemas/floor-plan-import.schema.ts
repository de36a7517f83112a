import { DECORATION_KINDS, DEFAULT_CANVAS_SIZE, TABLE_SHAPES } from '@pis/domain';
import { MAX_INT32, arrayOf, closedObject, int, oneOfValues, responseObject, text } from './primitives';

/**
 * Canvas sizes and decoration extents: greater than 0, at most 100000
 * (docs/reference/provider-api.md#floor-plan-import-fields).
 */
export const canvasSize = () => ({ type: 'number', exclusiveMinimum: 0, maximum: 100_000 }) as const;

export const importTableSchema = closedObject(
  {
    externalId: text(1, 128),
    label: text(1, 40),
    seatCount: int(1, 1000),
    x: { type: 'number', description: "the table's centre; within the room canvas, edges included" },
    y: { type: 'number', description: "the table's centre; within the room canvas, edges included" },
    minCovers: { ...int(1, MAX_INT32), description: 'default 1; at most maxCovers' },
    maxCovers: { ...int(1, MAX_INT32), description: 'default seatCount' },
    rotation: { type: 'number', default: 0, description: 'degrees, normalised into [0, 360)' },
    shape: {
      ...oneOfValues(TABLE_SHAPES),
      description: 'default round up to 4 seats, rectangle above',
    },
  } as const,
  ['externalId', 'label', 'seatCount', 'x', 'y'],
);

export const importDecorationSchema = closedObject(
  {
    kind: oneOfValues(DECORATION_KINDS),
    x: { type: 'number' },
    y: { type: 'number' },
    width: canvasSize(),
    height: canvasSize(),
    rotation: { type: 'number', default: 0 },
    text: { type: ['string', 'null'], minLength: 1, maxLength: 200, default: null },
  } as const,
  ['kind', 'x', 'y', 'width', 'height'],
);

export const importRoomSchema = closedObject(
  {
    externalId: text(1, 128),
    name: text(1, 120),
    order: { ...int(0, MAX_INT32), description: 'default: the index of the room in the array' },
    canvasWidth: { ...canvasSize(), default: DEFAULT_CANVAS_SIZE },
    canvasHeight: { ...canvasSize(), default: DEFAULT_CANVAS_SIZE },
    tables: { ...arrayOf(importTableSchema, 500), default: [] },
    decorations: { ...arrayOf(importDecorationSchema, 200), default: [] },
  } as const,
  ['externalId', 'name'],
);

export const floorPlanImportRequestSchema = closedObject(
  {
    rooms: { ...arrayOf(importRoomSchema, 50), minItems: 1 },
    replaceDraft: { type: 'boolean', default: false },
  } as const,
  ['rooms'],
);

export const importResultSchema = responseObject({
  rooms: {
    type: 'array',
    items: responseObject({
      externalRoomId: text(1, 128),
      roomId: text(1, 128),
      name: text(1, 120),
    } as const),
  },
  mapping: {
    type: 'array',
    items: responseObject({
      externalTableId: text(1, 128),
      tableId: text(1, 128),
      label: text(1, 40),
    } as const),
  },
} as const);
