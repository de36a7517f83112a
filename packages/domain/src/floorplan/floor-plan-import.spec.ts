import { room, sequentialIds, workingPlan } from '../../test/builders';
import type { Outcome } from '../kernel/outcome';
import type {
  FloorPlanImportInput,
  FloorPlanStatus,
  ImportRoomInput,
  ImportTableInput,
  WorkingPlan,
} from './floor-plan';
import { defaultShape, normaliseRotation, planImport, type ImportPlan } from './floor-plan-import';

const tableIn = (overrides: Partial<ImportTableInput> = {}): ImportTableInput => ({
  externalId: 'pt-1',
  label: 'T1',
  seatCount: 4,
  x: 100,
  y: 100,
  ...overrides,
});

const roomIn = (overrides: Partial<ImportRoomInput> = {}): ImportRoomInput => ({
  externalId: 'pr-1',
  name: 'Main',
  tables: [tableIn()],
  ...overrides,
});

const importOf = (rooms: ImportRoomInput[], replaceDraft = false): FloorPlanImportInput => ({
  rooms,
  replaceDraft,
});

function planned(outcome: Outcome<ImportPlan>): ImportPlan {
  if (!outcome.ok) throw new Error(`expected success, got ${outcome.code}: ${outcome.message}`);
  return outcome.value;
}

function onlyTable(input: ImportTableInput, roomOverrides: Partial<ImportRoomInput> = {}) {
  const plan = planned(
    planImport(workingPlan(), importOf([roomIn({ ...roomOverrides, tables: [input] })]), sequentialIds()),
  );
  return plan.rooms[0]!.tables[0]!;
}

const existingDraft = workingPlan({ status: 'draft', rooms: [room({ id: 'old-room' })] });
const published = workingPlan({
  status: 'published',
  publishedVersion: 1,
  rooms: [room({ id: 'old-room' })],
});

describe('planImport: lifecycle', () => {
  it.each<[string, WorkingPlan, boolean, 'ok' | RegExp]>([
    ['the location has no rooms', workingPlan(), false, 'ok'],
    ['the location has no rooms and replaceDraft is sent', workingPlan(), true, 'ok'],
    ['a draft exists and replaceDraft is not sent', existingDraft, false, /replaceDraft/],
    ['a draft exists and replaceDraft is sent', existingDraft, true, 'ok'],
    ['the plan was published', published, false, /closed for good/],
    ['the plan was published and replaceDraft is sent', published, true, /closed for good/],
  ])('When %s, then the import answers as listed', (_c, working, replaceDraft, expected) => {
    const outcome = planImport(working, importOf([roomIn()], replaceDraft), sequentialIds());

    if (expected === 'ok') {
      expect(outcome.ok).toBe(true);
      return;
    }
    expect(outcome).toMatchObject({ ok: false, code: 'draft_not_empty', occupiedBy: null });
    expect(!outcome.ok && outcome.message).toMatch(expected);
  });

  it('When a draft is overwritten, then the new rooms and tables get new ids', () => {
    const plan = planned(planImport(existingDraft, importOf([roomIn()], true), sequentialIds('new')));

    expect(plan.rooms.map((r) => r.id)).toEqual(['new-1']);
    expect(plan.rooms[0]!.tables.map((t) => t.id)).toEqual(['new-2']);
    expect(plan.result.mapping).toEqual([{ externalTableId: 'pt-1', tableId: 'new-2', label: 'T1' }]);
  });

  it.each<[FloorPlanStatus, WorkingPlan, boolean]>([
    ['empty', workingPlan(), false],
    ['draft', existingDraft, false],
    ['published', published, true],
  ])(
    'When the plan is %s and the body breaks a rule, then the body answers first (validation_failed)',
    (_s, working, replaceDraft) => {
      const body = importOf([roomIn(), roomIn()], replaceDraft);

      expect(planImport(working, body, sequentialIds())).toMatchObject({
        ok: false,
        code: 'validation_failed',
      });
    },
  );
});

describe('planImport: defaults', () => {
  it('When a room sends no order, canvas or decorations, then they default to its index, 1000 x 1000 and none', () => {
    const plan = planned(
      planImport(
        workingPlan(),
        importOf([
          roomIn({ externalId: 'a', tables: [] }),
          roomIn({ externalId: 'b', tables: [], order: 7, canvasWidth: 300, canvasHeight: 200 }),
          roomIn({ externalId: 'c', tables: [] }),
        ]),
        sequentialIds(),
      ),
    );

    expect(plan.rooms.map((r) => [r.order, r.canvasWidth, r.canvasHeight, r.decorations])).toEqual([
      [0, 1000, 1000, []],
      [7, 300, 200, []],
      [2, 1000, 1000, []],
    ]);
  });

  it('When a table sends only the required fields, then covers, rotation, shape and active take their defaults', () => {
    expect(onlyTable(tableIn({ seatCount: 6 }))).toMatchObject({
      minCovers: 1,
      maxCovers: 6,
      rotation: 0,
      shape: 'rectangle',
      active: true,
      externalId: 'pt-1',
      label: 'T1',
      x: 100,
      y: 100,
    });
  });

  it('When a table sends its own covers and shape, then they are kept', () => {
    expect(onlyTable(tableIn({ seatCount: 8, minCovers: 3, maxCovers: 10, shape: 'square' }))).toMatchObject({
      minCovers: 3,
      maxCovers: 10,
      shape: 'square',
    });
  });

  it.each([
    [1, 'round'],
    [4, 'round'],
    [5, 'rectangle'],
    [1000, 'rectangle'],
  ])('When a table has %i seats and no shape, then its shape is %s', (seatCount, shape) => {
    expect(defaultShape(seatCount)).toBe(shape);
    expect(onlyTable(tableIn({ seatCount })).shape).toBe(shape);
  });

  it.each([
    [0, 0],
    [90, 90],
    [359.5, 359.5],
    [360, 0],
    [725, 5],
    [-90, 270],
    [-360, 0],
    [-0.5, 359.5],
    [-725, 355],
    [1080, 0],
  ])('When a table is rotated %d degrees, then it is stored as %d', (rotation, expected) => {
    const stored = onlyTable(tableIn({ rotation })).rotation;

    expect(Object.is(stored, expected)).toBe(true);
    expect(Object.is(normaliseRotation(rotation), expected)).toBe(true);
  });

  it('When a decoration omits rotation and text, then they default to 0 and null; a rotation is normalised', () => {
    const plan = planned(
      planImport(
        workingPlan(),
        importOf([
          roomIn({
            decorations: [
              { kind: 'wall', x: 0, y: 0, width: 1000, height: 10 },
              { kind: 'label', x: 5, y: 6, width: 7, height: 8, rotation: -45, text: 'Bar' },
            ],
          }),
        ]),
        sequentialIds(),
      ),
    );

    expect(plan.rooms[0]!.decorations).toEqual([
      { kind: 'wall', x: 0, y: 0, width: 1000, height: 10, rotation: 0, text: null },
      { kind: 'label', x: 5, y: 6, width: 7, height: 8, rotation: 315, text: 'Bar' },
    ]);
  });
});

describe('planImport: body rules', () => {
  it.each<[string, ImportRoomInput[], string[]]>([
    [
      'two rooms share an externalId',
      [roomIn({ tables: [] }), roomIn({ tables: [] })],
      ['/rooms/1/externalId'],
    ],
    [
      'two tables of one room share an externalId',
      [roomIn({ tables: [tableIn(), tableIn({ label: 'T2' })] })],
      ['/rooms/0/tables/1/externalId'],
    ],
    [
      'two tables of different rooms share an externalId',
      [roomIn({ externalId: 'a' }), roomIn({ externalId: 'b' })],
      ['/rooms/1/tables/0/externalId'],
    ],
    [
      'minCovers exceeds maxCovers',
      [roomIn({ tables: [tableIn({ minCovers: 5, maxCovers: 4 })] })],
      ['/rooms/0/tables/0/minCovers'],
    ],
    [
      'minCovers exceeds the default maxCovers (seatCount)',
      [roomIn({ tables: [tableIn({ seatCount: 4, minCovers: 5 })] })],
      ['/rooms/0/tables/0/minCovers'],
    ],
    [
      'x lies right of the default canvas',
      [roomIn({ tables: [tableIn({ x: 1000.001 })] })],
      ['/rooms/0/tables/0/x'],
    ],
    ['y lies above the canvas', [roomIn({ tables: [tableIn({ y: -0.1 })] })], ['/rooms/0/tables/0/y']],
    [
      'the centre lies outside a smaller canvas on both axes',
      [roomIn({ canvasWidth: 200, canvasHeight: 100, tables: [tableIn({ x: 201, y: 101 })] })],
      ['/rooms/0/tables/0/x', '/rooms/0/tables/0/y'],
    ],
  ])('When %s, then the import is refused naming %j', (_c, rooms, paths) => {
    const outcome = planImport(workingPlan(), importOf(rooms), sequentialIds());

    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.code).toBe('validation_failed');
    expect(outcome.details?.map((d) => d.path)).toEqual(paths);
    expect(outcome.message).toBe(outcome.details?.[0]?.message);
  });

  it.each<[string, ImportRoomInput[]]>([
    [
      'a room and a table share an externalId',
      [roomIn({ externalId: 'same', tables: [tableIn({ externalId: 'same' })] })],
    ],
    ['minCovers equals maxCovers', [roomIn({ tables: [tableIn({ minCovers: 4, maxCovers: 4 })] })]],
    ['a centre lies on the origin corner', [roomIn({ tables: [tableIn({ x: 0, y: 0 })] })]],
    [
      'a centre lies on the far corner of the default canvas',
      [roomIn({ tables: [tableIn({ x: 1000, y: 1000 })] })],
    ],
    [
      'a centre lies on the far corner of its own canvas',
      [roomIn({ canvasWidth: 200, canvasHeight: 100, tables: [tableIn({ x: 200, y: 100 })] })],
    ],
    ['a room has no tables', [roomIn({ tables: [] })]],
  ])('When %s, then the import is accepted', (_c, rooms) => {
    expect(planImport(workingPlan(), importOf(rooms), sequentialIds()).ok).toBe(true);
  });
});

describe('planImport: result', () => {
  it('When rooms and tables are imported, then rooms and mapping follow the input order, tables sit in their room', () => {
    const body = importOf([
      roomIn({
        externalId: 'terrace',
        name: 'Terrace',
        tables: [tableIn({ externalId: 'p-9', label: 'Z' }), tableIn({ externalId: 'p-1', label: 'A' })],
      }),
      roomIn({ externalId: 'hall', name: 'Hall', tables: [tableIn({ externalId: 'p-5', label: 'M' })] }),
    ]);

    const plan = planned(planImport(workingPlan(), body, sequentialIds()));

    expect(plan.result).toEqual({
      rooms: [
        { externalRoomId: 'terrace', roomId: 'id-1', name: 'Terrace' },
        { externalRoomId: 'hall', roomId: 'id-4', name: 'Hall' },
      ],
      mapping: [
        { externalTableId: 'p-9', tableId: 'id-2', label: 'Z' },
        { externalTableId: 'p-1', tableId: 'id-3', label: 'A' },
        { externalTableId: 'p-5', tableId: 'id-5', label: 'M' },
      ],
    });
    expect(plan.rooms.map((r) => [r.id, r.externalId, r.name])).toEqual([
      ['id-1', 'terrace', 'Terrace'],
      ['id-4', 'hall', 'Hall'],
    ]);
    expect(plan.rooms.flatMap((r) => r.tables.map((t) => [t.id, t.roomId]))).toEqual([
      ['id-2', 'id-1'],
      ['id-3', 'id-1'],
      ['id-5', 'id-4'],
    ]);
  });
});
