import { expectRefusedAt, limitCases, list, str, withValue, type LimitRow } from '../../test/limit-rows';
import { importBody } from '../../test/sample-bodies';
import { createValidator } from '../validation/validator';
import { MAX_INT32 } from './primitives';

const validator = createValidator();

const textRow = (pointer: string, min: number, max: number): LimitRow => ({
  pointer,
  valid: [str(min), str(max)],
  invalid: [str(min - 1), str(max + 1), null],
});
const intRow = (pointer: string, min: number, max = MAX_INT32): LimitRow => ({
  pointer,
  valid: [min, max],
  invalid: [min - 1, max + 1, 2.5],
});
const sizeRow = (pointer: string): LimitRow => ({
  pointer,
  valid: [0.001, 1, 100_000],
  invalid: [0, -1, 100_000.001, '10'],
});
const room = (i: number) => ({ externalId: `room-${i}`, name: `Room ${i}` });
const table = (i: number) => ({ externalId: `t-${i}`, label: `T${i}`, seatCount: 2, x: 1, y: 1 });
const decoration = () => ({ kind: 'plant', x: 1, y: 1, width: 10, height: 10 });

/**
 * docs/reference/provider-api.md#floor-plan-import-fields, both sides of every bound; decoration
 * sizes and text per decision 0031.
 */
const rows: LimitRow[] = [
  { pointer: '/rooms', valid: [list(1, room), list(50, room)], invalid: [[], list(51, room)] },
  textRow('/rooms/0/externalId', 1, 128),
  textRow('/rooms/0/name', 1, 120),
  intRow('/rooms/0/order', 0),
  sizeRow('/rooms/0/canvasWidth'),
  sizeRow('/rooms/0/canvasHeight'),
  { pointer: '/rooms/0/tables', valid: [[], list(500, table)], invalid: [list(501, table)] },
  textRow('/rooms/0/tables/0/externalId', 1, 128),
  textRow('/rooms/0/tables/0/label', 1, 40),
  intRow('/rooms/0/tables/0/seatCount', 1, 1000),
  intRow('/rooms/0/tables/1/minCovers', 1),
  intRow('/rooms/0/tables/1/maxCovers', 1),
  { pointer: '/rooms/0/tables/0/x', valid: [0, 999.5, -3], invalid: ['1', null] },
  { pointer: '/rooms/0/tables/1/rotation', valid: [0, 359.9, -90, 720], invalid: ['90', null] },
  { pointer: '/rooms/0/tables/1/shape', valid: ['round', 'square', 'rectangle'], invalid: ['oval', ''] },
  { pointer: '/rooms/0/decorations', valid: [[], list(200, decoration)], invalid: [list(201, decoration)] },
  {
    pointer: '/rooms/0/decorations/0/kind',
    valid: ['wall', 'bar', 'plant', 'label', 'zone'],
    invalid: ['door'],
  },
  sizeRow('/rooms/0/decorations/0/width'),
  sizeRow('/rooms/0/decorations/0/height'),
  { pointer: '/rooms/0/decorations/1/text', valid: [str(1), str(200), null], invalid: [str(0), str(201)] },
  { pointer: '/replaceDraft', valid: [true, false], invalid: ['true', null] },
];

const { accepted, refused } = limitCases(rows);

describe('Floor plan import limits', () => {
  it('When the sample import body is sent, then it is accepted', () => {
    expect(validator.floorPlanImportRequest(importBody())).toMatchObject({ ok: true });
  });

  it.each(accepted)('When $pointer is $shown, then the import is accepted', ({ pointer, value }) => {
    expect(validator.floorPlanImportRequest(withValue(importBody(), pointer, value))).toMatchObject({
      ok: true,
    });
  });

  it.each(refused)('When $pointer is $shown, then it is refused at $pointer', ({ pointer, value }) => {
    expectRefusedAt(validator.floorPlanImportRequest(withValue(importBody(), pointer, value)), pointer);
  });

  it.each([
    '/rooms',
    '/rooms/0/externalId',
    '/rooms/0/name',
    '/rooms/0/tables/0/externalId',
    '/rooms/0/tables/0/label',
    '/rooms/0/tables/0/seatCount',
    '/rooms/0/tables/0/x',
    '/rooms/0/tables/0/y',
    '/rooms/0/decorations/0/kind',
    '/rooms/0/decorations/0/x',
    '/rooms/0/decorations/0/y',
    '/rooms/0/decorations/0/width',
    '/rooms/0/decorations/0/height',
  ])('When the required %s is missing, then it is refused as required', (pointer) => {
    const result = validator.floorPlanImportRequest(withValue(importBody(), pointer, undefined));
    expect(result).toEqual({ ok: false, details: [{ path: pointer, message: 'is required' }] });
  });
});

describe('Table PATCH limits', () => {
  const rowsPatch: LimitRow[] = [
    textRow('/label', 1, 40),
    intRow('/seatCount', 1, 1000),
    intRow('/minCovers', 1),
    intRow('/maxCovers', 1),
    { pointer: '/active', valid: [true, false], invalid: ['no', null] },
    { pointer: '/shape', valid: ['square'], invalid: ['hexagon'] },
    { pointer: '/x', valid: [0, 12.5], invalid: [null, '1'] },
    { pointer: '/rotation', valid: [0, 45], invalid: [null] },
  ];
  const patch = limitCases(rowsPatch);

  it.each(patch.accepted)(
    'When only $pointer is sent as $shown, then the patch is accepted',
    ({ pointer, value }) => {
      expect(validator.tablePatchRequest(withValue({}, pointer, value))).toMatchObject({ ok: true });
    },
  );

  it.each(patch.refused)('When $pointer is $shown, then it is refused at $pointer', ({ pointer, value }) => {
    expectRefusedAt(validator.tablePatchRequest(withValue({}, pointer, value)), pointer);
  });

  it('When the patch names no field, then it is refused', () => {
    expect(validator.tablePatchRequest({})).toEqual({
      ok: false,
      details: [{ path: '', message: 'must name at least one property' }],
    });
  });

  it('When the patch names a field the working plan does not edit, then it is refused as unknown', () => {
    expect(validator.tablePatchRequest({ label: 'T9', id: 'x' })).toEqual({
      ok: false,
      details: [{ path: '/id', message: 'unknown property' }],
    });
  });
});
