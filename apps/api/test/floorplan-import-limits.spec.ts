import { MAX_INT32 } from '@pis/contract';
import { expectEnvelope } from './support/envelope';
import { Harness } from './support/harness';
import { P, type Json } from './support/wire';

/**
 * docs/reference/provider-api.md#floor-plan-import-fields: every bound of the floor plan import,
 * both sides, through the API.
 */
let h: Harness;
beforeAll(async () => {
  h = await Harness.start();
});
afterAll(async () => {
  await h?.stop();
});

const chars = (n: number) => 'x'.repeat(n);
const table = (overrides: Json = {}, i = 0): Json => ({
  externalId: `T${i}`,
  label: `${i}`,
  seatCount: 4,
  x: 10,
  y: 10,
  ...overrides,
});
const decoration = (overrides: Json = {}): Json => ({
  kind: 'plant',
  x: 1,
  y: 1,
  width: 10,
  height: 10,
  ...overrides,
});
const room = (overrides: Json = {}, i = 0): Json => ({
  externalId: `R${i}`,
  name: `Room ${i}`,
  tables: [table()],
  ...overrides,
});
const plan = (rooms: Json[]): Json => ({ rooms });
const withRoom = (overrides: Json) => plan([room(overrides)]);
const withTable = (overrides: Json) => plan([room({ tables: [table(overrides)] })]);
const withDecoration = (overrides: Json) => plan([room({ decorations: [decoration(overrides)] })]);
const many = <T>(n: number, make: (i: number) => T): T[] => Array.from({ length: n }, (_, i) => make(i));

type Row = [description: string, body: unknown, pointer: string | null];

const rows: Row[] = [
  ['no rooms', plan([]), '/rooms'],
  ['1 room', plan([room()]), null],
  ['50 rooms', plan(many(50, (i) => room({ tables: [table({}, i)] }, i))), null],
  ['51 rooms', plan(many(51, (i) => room({ tables: [table({}, i)] }, i))), '/rooms'],
  ['no rooms property', {}, '/rooms'],
  ['a room externalId of 0 characters', withRoom({ externalId: '' }), '/rooms/0/externalId'],
  ['a room externalId of 1 character', withRoom({ externalId: 'r' }), null],
  ['a room externalId of 128 characters', withRoom({ externalId: chars(128) }), null],
  ['a room externalId of 129 characters', withRoom({ externalId: chars(129) }), '/rooms/0/externalId'],
  ['a room name of 0 characters', withRoom({ name: '' }), '/rooms/0/name'],
  ['a room name of 1 character', withRoom({ name: 'n' }), null],
  ['a room name of 120 characters', withRoom({ name: chars(120) }), null],
  ['a room name of 121 characters', withRoom({ name: chars(121) }), '/rooms/0/name'],
  ['a room without a name', withRoom({ name: undefined }), '/rooms/0/name'],
  ['a room order of -1', withRoom({ order: -1 }), '/rooms/0/order'],
  ['a room order of 0', withRoom({ order: 0 }), null],
  [`a room order of ${MAX_INT32}`, withRoom({ order: MAX_INT32 }), null],
  [`a room order of ${MAX_INT32 + 1}`, withRoom({ order: MAX_INT32 + 1 }), '/rooms/0/order'],
  ['a canvas width of 0', withRoom({ canvasWidth: 0 }), '/rooms/0/canvasWidth'],
  ['a canvas width of 20.5', withRoom({ canvasWidth: 20.5 }), null],
  ['a canvas width of 100000', withRoom({ canvasWidth: 100000 }), null],
  ['a canvas width of 100000.5', withRoom({ canvasWidth: 100000.5 }), '/rooms/0/canvasWidth'],
  ['a canvas height of -1', withRoom({ canvasHeight: -1 }), '/rooms/0/canvasHeight'],
  ['a canvas height of 100000', withRoom({ canvasHeight: 100000 }), null],
  ['a canvas height of 100001', withRoom({ canvasHeight: 100001 }), '/rooms/0/canvasHeight'],
  ['a room without tables', withRoom({ tables: [] }), null],
  ['a room with 500 tables', withRoom({ tables: many(500, (i) => table({}, i)) }), null],
  ['a room with 501 tables', withRoom({ tables: many(501, (i) => table({}, i)) }), '/rooms/0/tables'],
  ['a table externalId of 0 characters', withTable({ externalId: '' }), '/rooms/0/tables/0/externalId'],
  ['a table externalId of 128 characters', withTable({ externalId: chars(128) }), null],
  [
    'a table externalId of 129 characters',
    withTable({ externalId: chars(129) }),
    '/rooms/0/tables/0/externalId',
  ],
  ['a table label of 0 characters', withTable({ label: '' }), '/rooms/0/tables/0/label'],
  ['a table label of 1 character', withTable({ label: 'l' }), null],
  ['a table label of 40 characters', withTable({ label: chars(40) }), null],
  ['a table label of 41 characters', withTable({ label: chars(41) }), '/rooms/0/tables/0/label'],
  ['seatCount 0', withTable({ seatCount: 0 }), '/rooms/0/tables/0/seatCount'],
  ['seatCount 1', withTable({ seatCount: 1 }), null],
  ['seatCount 1000', withTable({ seatCount: 1000 }), null],
  ['seatCount 1001', withTable({ seatCount: 1001 }), '/rooms/0/tables/0/seatCount'],
  ['seatCount 2.5', withTable({ seatCount: 2.5 }), '/rooms/0/tables/0/seatCount'],
  ['minCovers 0', withTable({ minCovers: 0 }), '/rooms/0/tables/0/minCovers'],
  ['minCovers 1', withTable({ minCovers: 1 }), null],
  [
    `minCovers ${MAX_INT32} with maxCovers ${MAX_INT32}`,
    withTable({ minCovers: MAX_INT32, maxCovers: MAX_INT32 }),
    null,
  ],
  [`maxCovers ${MAX_INT32 + 1}`, withTable({ maxCovers: MAX_INT32 + 1 }), '/rooms/0/tables/0/maxCovers'],
  ['maxCovers 0', withTable({ maxCovers: 0 }), '/rooms/0/tables/0/maxCovers'],
  ['minCovers equal to maxCovers', withTable({ minCovers: 3, maxCovers: 3 }), null],
  ['minCovers above maxCovers', withTable({ minCovers: 3, maxCovers: 2 }), '/rooms/0/tables/0/minCovers'],
  [
    'minCovers above the seatCount default of maxCovers',
    withTable({ seatCount: 4, minCovers: 5 }),
    '/rooms/0/tables/0/minCovers',
  ],
  ['maxCovers above seatCount', withTable({ seatCount: 2, maxCovers: 6 }), null],
  ['x on the left edge', withTable({ x: 0 }), null],
  ['x on the right edge', withTable({ x: 1000 }), null],
  ['x just left of the canvas', withTable({ x: -0.001 }), '/rooms/0/tables/0/x'],
  ['x just right of the canvas', withTable({ x: 1000.001 }), '/rooms/0/tables/0/x'],
  [
    'y on the bottom edge of a 600 high canvas',
    plan([room({ canvasHeight: 600, tables: [table({ y: 600 })] })]),
    null,
  ],
  [
    'y below a 600 high canvas',
    plan([room({ canvasHeight: 600, tables: [table({ y: 601 })] })]),
    '/rooms/0/tables/0/y',
  ],
  ['a table without x', withTable({ x: undefined }), '/rooms/0/tables/0/x'],
  ['a table without y', withTable({ y: undefined }), '/rooms/0/tables/0/y'],
  ['x as a string', withTable({ x: '10' }), '/rooms/0/tables/0/x'],
  ['an unknown shape', withTable({ shape: 'oval' }), '/rooms/0/tables/0/shape'],
  ['200 decorations', withRoom({ decorations: many(200, () => decoration()) }), null],
  ['201 decorations', withRoom({ decorations: many(201, () => decoration()) }), '/rooms/0/decorations'],
  ['a decoration of an unknown kind', withDecoration({ kind: 'door' }), '/rooms/0/decorations/0/kind'],
  ['a decoration of width 0', withDecoration({ width: 0 }), '/rooms/0/decorations/0/width'],
  ['a decoration of height 100001', withDecoration({ height: 100001 }), '/rooms/0/decorations/0/height'],
  ['a decoration text of 0 characters', withDecoration({ text: '' }), '/rooms/0/decorations/0/text'],
  ['a decoration text of 200 characters', withDecoration({ text: chars(200) }), null],
  [
    'a decoration text of 201 characters',
    withDecoration({ text: chars(201) }),
    '/rooms/0/decorations/0/text',
  ],
  ['a decoration without height', withDecoration({ height: undefined }), '/rooms/0/decorations/0/height'],
  [
    'two rooms with one externalId',
    plan([room({ tables: [table({}, 1)] }, 1), room({ tables: [table({}, 2)] }, 1)]),
    '/rooms/1/externalId',
  ],
  [
    'two tables with one externalId in one room',
    withRoom({ tables: [table({}, 1), table({ label: 'b' }, 1)] }),
    '/rooms/0/tables/1/externalId',
  ],
  [
    'two tables with one externalId across rooms',
    plan([room({ tables: [table({}, 1)] }, 1), room({ tables: [table({}, 1)] }, 2)]),
    '/rooms/1/tables/0/externalId',
  ],
  [
    'a room and a table sharing an externalId',
    plan([room({ externalId: 'same', tables: [table({ externalId: 'same' })] })]),
    null,
  ],
  [
    'two tables with one label',
    withRoom({ tables: [table({ label: 'A' }, 1), table({ label: 'A' }, 2)] }),
    null,
  ],
  ['replaceDraft as a string', { ...plan([room()]), replaceDraft: 'true' }, '/replaceDraft'],
  ['an unknown top-level property', { ...plan([room()]), version: 1 }, '/version'],
  ['an unknown room property', withRoom({ floor: 1 }), '/rooms/0/floor'],
  ['an unknown table property', withTable({ id: 'mine' }), '/rooms/0/tables/0/id'],
  ['an unknown decoration property', withDecoration({ color: 'red' }), '/rooms/0/decorations/0/color'],
  ['an array body', [room()], ''],
];

it.each(
  rows.map(
    ([d, body, pointer]) => [d, pointer === null ? '201' : `422 at "${pointer}"`, body, pointer] as const,
  ),
)('When an import has %s, then %s', async (_d, _o, body, pointer) => {
  const loc = await h.location({ plan: 'none' });

  const res = await loc.api.post(`${P}/floorplan/import`).send(JSON.parse(JSON.stringify(body)));

  if (pointer === null) {
    expect(res.status).toBe(201);
    return;
  }
  expectEnvelope(res, 422, 'validation_failed');
  expect(res.body.error.details).toContainEqual({ path: pointer, message: expect.any(String) });
  const working = await h.operator.get(loc.ops('/floorplan/working')).expect(200);
  expect(working.body.status).toBe('empty');
});

describe('defaults and normalisation', () => {
  it.each([
    [{ seatCount: 4 }, { shape: 'round', minCovers: 1, maxCovers: 4, rotation: 0 }],
    [{ seatCount: 5 }, { shape: 'rectangle', minCovers: 1, maxCovers: 5, rotation: 0 }],
    [{ seatCount: 5, shape: 'round' }, { shape: 'round' }],
    [{ rotation: -90 }, { rotation: 270 }],
    [{ rotation: 360 }, { rotation: 0 }],
    [{ rotation: 720.5 }, { rotation: 0.5 }],
    [{ rotation: -0 }, { rotation: 0 }],
  ])('When a table is imported as %j, then the working plan holds %j', async (overrides, expected) => {
    const loc = await h.location({ plan: 'none' });
    await loc.api.post(`${P}/floorplan/import`).send(withTable(overrides)).expect(201);

    const working = await h.operator.get(loc.ops('/floorplan/working')).expect(200);

    const stored = working.body.rooms[0].tables[0];
    expect(stored).toMatchObject(expected);
    expect(Object.is(stored.rotation, -0)).toBe(false);
  });

  it('When rooms come without order or canvas, then order is the index and the canvas 1000 by 1000', async () => {
    const loc = await h.location({ plan: 'none' });
    await loc.api
      .post(`${P}/floorplan/import`)
      .send(plan([room({}, 1), room({ tables: [table({}, 2)] }, 2)]))
      .expect(201);

    const working = await h.operator.get(loc.ops('/floorplan/working')).expect(200);

    expect(working.body.rooms.map((r: Json) => [r['order'], r['canvasWidth'], r['canvasHeight']])).toEqual([
      [0, 1000, 1000],
      [1, 1000, 1000],
    ]);
  });
});
