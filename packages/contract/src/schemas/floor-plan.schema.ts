import { DECORATION_KINDS, FLOOR_PLAN_STATUSES, TABLE_SHAPES } from '@pis/domain';
import { canvasSize } from './floor-plan-import.schema';
import {
  MAX_INT32,
  atLeast,
  utcDateTime,
  int,
  oneOfValues,
  responseObject,
  text,
  nullableUtcDateTime,
} from './primitives';

const tableProperties = {
  id: { ...atLeast(1), description: 'stable UUID; the only table reference of the API and of webhooks' },
  label: { ...text(1, 40), description: 'display-only; may be renamed' },
  shape: oneOfValues(TABLE_SHAPES),
  seatCount: int(1, 1000),
  minCovers: int(1, MAX_INT32),
  maxCovers: int(1, MAX_INT32),
  active: { type: 'boolean' },
  x: { type: 'number' },
  y: { type: 'number' },
  rotation: { type: 'number', minimum: 0, exclusiveMaximum: 360 },
} as const;

export const publishedTableSchema = responseObject(tableProperties);

export const publishedFloorPlanSchema = responseObject({
  version: int(1, MAX_INT32),
  publishedAt: utcDateTime(),
  rooms: {
    type: 'array',
    items: responseObject({
      id: atLeast(1),
      name: text(1, 120),
      order: int(0, MAX_INT32),
      tables: { type: 'array', items: publishedTableSchema },
    } as const),
  },
} as const);

/** A table as it stands in the working plan (backoffice). */
export const workingTableSchema = responseObject({
  ...tableProperties,
  roomId: atLeast(1),
  externalId: { type: ['string', 'null'], minLength: 1, maxLength: 128 },
} as const);

export const decorationSchema = responseObject({
  kind: oneOfValues(DECORATION_KINDS),
  x: { type: 'number' },
  y: { type: 'number' },
  width: canvasSize(),
  height: canvasSize(),
  rotation: { type: 'number', minimum: 0, exclusiveMaximum: 360 },
  text: { type: ['string', 'null'], minLength: 1, maxLength: 200 },
} as const);

export const workingPlanSchema = responseObject({
  status: oneOfValues(FLOOR_PLAN_STATUSES),
  publishedVersion: { type: ['integer', 'null'], minimum: 1, maximum: MAX_INT32 },
  publishedAt: nullableUtcDateTime(),
  rooms: {
    type: 'array',
    items: responseObject({
      id: atLeast(1),
      externalId: { type: ['string', 'null'], minLength: 1, maxLength: 128 },
      name: text(1, 120),
      order: int(0, MAX_INT32),
      canvasWidth: canvasSize(),
      canvasHeight: canvasSize(),
      decorations: { type: 'array', items: decorationSchema },
      tables: { type: 'array', items: workingTableSchema },
    } as const),
  },
} as const);

const tableIdList = (description: string) => ({ type: 'array', items: atLeast(1), description }) as const;

/** Table by table, what a plan changes against the published one before it. */
export const floorPlanChangesSchema = responseObject({
  added: tableIdList('tables the published plan does not have (every table before the first publish)'),
  deactivated: tableIdList('tables that were active and are not'),
  reactivated: tableIdList('tables that were inactive and are active'),
  relabelled: {
    type: 'array',
    items: responseObject({ tableId: atLeast(1), from: text(1, 40), to: text(1, 40) } as const),
  },
  updated: tableIdList(
    'tables with a change other than label and active: shape, seats, covers, position, rotation',
  ),
} as const);

export const publishPreviewSchema = responseObject({
  published: {
    anyOf: [publishedFloorPlanSchema, { type: 'null' }],
    description: 'the latest published plan; null before the first publish',
  },
  changes: floorPlanChangesSchema,
} as const);

export const publishResponseSchema = responseObject({
  version: int(1, MAX_INT32),
  publishedAt: utcDateTime(),
} as const);

/** Every field optional, at least one; the same bounds as the import. */
export const tablePatchRequestSchema = {
  type: 'object',
  properties: {
    label: text(1, 40),
    active: { type: 'boolean' },
    x: { type: 'number' },
    y: { type: 'number' },
    rotation: { type: 'number' },
    shape: oneOfValues(TABLE_SHAPES),
    seatCount: int(1, 1000),
    minCovers: int(1, MAX_INT32),
    maxCovers: int(1, MAX_INT32),
  },
  minProperties: 1,
  additionalProperties: false,
} as const;
