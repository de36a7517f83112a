import { getWorkingPlan, type FloorPlanImportInput } from '../../src';
import { aFloorPlanImport, anImportRoom, anImportTable } from '../builders';
import { aLocationWithoutPlan, expectOk } from './use-case-world';

describe('floor plan: import lifecycle (docs/reference/provider-api.md#floor-plan-lifecycle)', () => {
  it('When the location has no rooms, then the import creates a draft and returns the room and table mapping', async () => {
    const world = await aLocationWithoutPlan();
    const input = aFloorPlanImport({ rooms: 2, tablesPerRoom: 3 });

    const result = expectOk(await world.importPlan(input));

    expect(result.rooms.map((r) => [r.externalRoomId, r.name])).toEqual([
      ['room-1', 'Room 1'],
      ['room-2', 'Room 2'],
    ]);
    expect(result.mapping.map((m) => [m.externalTableId, m.label])).toEqual([
      ['table-1-1', 'A1'],
      ['table-1-2', 'A2'],
      ['table-1-3', 'A3'],
      ['table-2-1', 'B1'],
      ['table-2-2', 'B2'],
      ['table-2-3', 'B3'],
    ]);
    expect(new Set(result.mapping.map((m) => m.tableId)).size).toBe(6);
    const working = expectOk(await getWorkingPlan(world.deps, { locationId: world.locationId }));
    expect(working.status).toBe('draft');
    expect(working.rooms.flatMap((r) => r.tables.map((t) => t.id))).toEqual(
      result.mapping.map((m) => m.tableId),
    );
  });

  it('When optional fields are left out, then the defaults of the import are filled in', async () => {
    const world = await aLocationWithoutPlan();
    const input: FloorPlanImportInput = {
      replaceDraft: false,
      rooms: [
        {
          externalId: 'r',
          name: 'Only',
          tables: [
            anImportTable(0, 0, { seatCount: 4 }),
            anImportTable(0, 1, { seatCount: 6, rotation: -90 }),
          ],
          decorations: [{ kind: 'plant', x: 1, y: 2, width: 3, height: 4 }],
        },
      ],
    };

    expectOk(await world.importPlan(input));

    const [room] = expectOk(await getWorkingPlan(world.deps, { locationId: world.locationId })).rooms;
    expect(room).toMatchObject({
      order: 0,
      canvasWidth: 1000,
      canvasHeight: 1000,
      decorations: [{ kind: 'plant', rotation: 0, text: null }],
    });
    expect(room!.tables.map((t) => [t.shape, t.minCovers, t.maxCovers, t.rotation, t.active])).toEqual([
      ['round', 1, 4, 0, true],
      ['rectangle', 1, 6, 270, true],
    ]);
  });

  it('When a draft exists and replaceDraft is not set, then draft_not_empty says how to replace it and the draft stays', async () => {
    const world = await aLocationWithoutPlan();
    const first = expectOk(await world.importPlan(aFloorPlanImport()));

    const outcome = await world.importPlan(aFloorPlanImport({ tablesPerRoom: 2 }));

    expect(outcome).toMatchObject({ ok: false, code: 'draft_not_empty' });
    expect(!outcome.ok && outcome.message).toContain('replaceDraft');
    const working = expectOk(await getWorkingPlan(world.deps, { locationId: world.locationId }));
    expect(working.rooms[0]!.tables.map((t) => t.id)).toEqual(first.mapping.map((m) => m.tableId));
  });

  it('When a draft exists and replaceDraft is true, then it is overwritten with a new mapping', async () => {
    const world = await aLocationWithoutPlan();
    const first = expectOk(await world.importPlan(aFloorPlanImport()));

    const second = expectOk(
      await world.importPlan(aFloorPlanImport({ tablesPerRoom: 2, replaceDraft: true })),
    );

    const ids = expectOk(await getWorkingPlan(world.deps, { locationId: world.locationId })).rooms.flatMap(
      (r) => r.tables.map((t) => t.id),
    );
    expect(ids).toEqual(second.mapping.map((m) => m.tableId));
    expect(ids.some((id) => first.mapping.some((m) => m.tableId === id))).toBe(false);
  });

  it.each([false, true])(
    'When the plan was published, then every import (replaceDraft %s) is refused for good',
    async (replaceDraft) => {
      const world = await aLocationWithoutPlan();
      expectOk(await world.importPlan(aFloorPlanImport()));
      expectOk(await world.publish());

      const outcome = await world.importPlan(aFloorPlanImport({ replaceDraft }));

      expect(outcome).toMatchObject({ ok: false, code: 'draft_not_empty' });
      expect(!outcome.ok && outcome.message).toMatch(/closed for good/);
    },
  );

  it.each<[string, FloorPlanImportInput]>([
    [
      'table externalIds repeat',
      {
        replaceDraft: false,
        rooms: [anImportRoom(0, 1), { ...anImportRoom(1, 0), tables: [anImportTable(0, 0)] }],
      },
    ],
    ['room externalIds repeat', { replaceDraft: false, rooms: [anImportRoom(0, 1), anImportRoom(0, 0)] }],
    [
      'minCovers exceeds maxCovers',
      {
        replaceDraft: false,
        rooms: [{ ...anImportRoom(0, 0), tables: [anImportTable(0, 0, { minCovers: 5, maxCovers: 4 })] }],
      },
    ],
    [
      'a table centre lies outside the canvas',
      {
        replaceDraft: false,
        rooms: [{ ...anImportRoom(0, 0), canvasWidth: 200, tables: [anImportTable(0, 0, { x: 200.5 })] }],
      },
    ],
  ])('When %s, then 422 validation_failed, before the lifecycle is looked at', async (_, input) => {
    const world = await aLocationWithoutPlan();
    expectOk(await world.importPlan(aFloorPlanImport()));
    expectOk(await world.publish());

    expect(await world.importPlan(input)).toMatchObject({ ok: false, code: 'validation_failed' });
  });
});

describe('floor plan: the working plan (backoffice)', () => {
  it('When the plan is a draft and then published, then the working plan says so, with decorations and the latest version', async () => {
    const world = await aLocationWithoutPlan();
    const input = aFloorPlanImport();
    input.rooms[0]!.decorations = [{ kind: 'bar', x: 10, y: 10, width: 200, height: 30, text: 'Bar' }];
    expectOk(await world.importPlan(input));
    const draft = expectOk(await getWorkingPlan(world.deps, { locationId: world.locationId }));
    expectOk(await world.publish());

    const published = expectOk(await getWorkingPlan(world.deps, { locationId: world.locationId }));

    expect([draft.status, draft.publishedVersion]).toEqual(['draft', null]);
    expect([published.status, published.publishedVersion, published.publishedAt]).toEqual([
      'published',
      1,
      world.clock.now(),
    ]);
    expect(published.rooms[0]!.decorations).toEqual([
      { kind: 'bar', x: 10, y: 10, width: 200, height: 30, rotation: 0, text: 'Bar' },
    ]);
  });

  it('When the location is unknown, then the working plan is not_found', async () => {
    const world = await aLocationWithoutPlan();

    expect(
      await getWorkingPlan(world.deps, { locationId: '00000000-0000-4000-8000-0000000000fe' }),
    ).toMatchObject({ ok: false, code: 'not_found' });
  });
});
