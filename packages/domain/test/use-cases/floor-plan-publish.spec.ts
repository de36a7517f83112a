import {
  editTable,
  getPublishedFloorPlan,
  getWorkingPlan,
  openWalkInOrder,
  publishFloorPlan,
  type Deps,
  type TablePatch,
} from '../../src';
import { aFloorPlanImport } from '../builders';
import { createInMemoryDeps } from '../in-memory/create-in-memory-deps';
import { givenPublishedLocation } from '../scenarios/published-location';
import { aLocationWithoutPlan, expectOk } from './use-case-world';

const edit = (deps: Deps, locationId: string, tableId: string, patch: TablePatch) =>
  editTable(deps, { locationId, tableId, patch });

describe('floor plan: publishing', () => {
  it('When the plan is published, then version 1 at now, and floorplan.published carries version, publishedAt and every table added', async () => {
    const world = await aLocationWithoutPlan();
    const imported = expectOk(await world.importPlan(aFloorPlanImport()));

    const published = expectOk(await world.publish());

    const tableIds = imported.mapping.map((t) => t.tableId);
    expect(published).toEqual({ version: 1, publishedAt: world.clock.now() });
    expect(world.store.events(world.locationId)[0]!.data).toMatchObject({
      changes: { added: tableIds.map(() => expect.any(String)) },
    });
    expect(world.store.events(world.locationId).map((e) => [e.type, e.data, e.sequence])).toEqual([
      [
        'floorplan.published',
        {
          version: 1,
          publishedAt: world.clock.now().toIso(),
          changes: {
            added: expect.arrayContaining(tableIds),
            deactivated: [],
            reactivated: [],
            relabelled: [],
            updated: [],
          },
        },
        1,
      ],
    ]);
  });

  it('When a published plan is edited and published again, then floorplan.published lists what changed', async () => {
    const world = await aLocationWithoutPlan();
    const imported = expectOk(await world.importPlan(aFloorPlanImport()));
    expectOk(await world.publish());
    const [first, second, third] = imported.mapping.map((t) => t.tableId);
    expectOk(await edit(world.deps, world.locationId, first!, { label: 'Window 1' }));
    expectOk(await edit(world.deps, world.locationId, second!, { active: false }));
    expectOk(await edit(world.deps, world.locationId, third!, { seatCount: 8, maxCovers: 8 }));

    expectOk(await world.publish());

    const last = world.store.events(world.locationId).at(-1)!;
    expect(last.data).toMatchObject({
      version: 2,
      changes: {
        added: [],
        deactivated: [second],
        reactivated: [],
        relabelled: [{ tableId: first, from: expect.any(String), to: 'Window 1' }],
        updated: [third],
      },
    });
  });

  it('When the plan is published again and again, then versions count 1, 2, 3', async () => {
    const world = await aLocationWithoutPlan();
    expectOk(await world.importPlan(aFloorPlanImport()));

    const versions = [];
    for (let i = 0; i < 3; i += 1) {
      world.clock.advance(1000);
      versions.push(expectOk(await world.publish()).version);
    }

    expect(versions).toEqual([1, 2, 3]);
    expect(expectOk(await getPublishedFloorPlan(world.deps, { locationId: world.locationId })).version).toBe(
      3,
    );
  });

  it('When there is nothing to publish, then 422 validation_failed and no event', async () => {
    const world = await aLocationWithoutPlan();

    expect(await world.publish()).toMatchObject({ ok: false, code: 'validation_failed' });
    expect(world.store.events(world.locationId)).toEqual([]);
  });

  it('When the location is unknown, then publishing is not_found', async () => {
    const world = await aLocationWithoutPlan();

    expect(
      await publishFloorPlan(world.deps, { locationId: '00000000-0000-4000-8000-0000000000ff' }),
    ).toMatchObject({ ok: false, code: 'not_found' });
  });

  it('When nothing was published, then reading the published plan is floorplan_not_published', async () => {
    const world = await aLocationWithoutPlan();
    expectOk(await world.importPlan(aFloorPlanImport()));

    expect(await getPublishedFloorPlan(world.deps, { locationId: world.locationId })).toMatchObject({
      ok: false,
      code: 'floorplan_not_published',
    });
  });

  it('When the plan is published, then the provider reads its rooms and tables by the ids the import mapped', async () => {
    const world = await aLocationWithoutPlan();
    const imported = expectOk(await world.importPlan(aFloorPlanImport({ rooms: 2, tablesPerRoom: 2 })));
    expectOk(await world.publish());

    const plan = expectOk(await getPublishedFloorPlan(world.deps, { locationId: world.locationId }));

    expect(plan.rooms.map((r) => r.id)).toEqual(imported.rooms.map((r) => r.roomId));
    expect(plan.rooms.flatMap((r) => r.tables.map((t) => [t.id, t.label, t.active]))).toEqual(
      imported.mapping.map((m) => [m.tableId, m.label, true]),
    );
  });
});

describe('floor plan: backoffice table edits reach the provider with the next publish', () => {
  it.each<[string, TablePatch]>([
    ['renamed', { label: 'Window' }],
    ['deactivated', { active: false }],
    ['moved within the canvas', { x: 1000, y: 0, rotation: 450 }],
    ['resized', { seatCount: 8, minCovers: 2, maxCovers: 8, shape: 'rectangle' }],
  ])(
    'When a table is %s, then the working plan has it at once and the published plan only after the next publish',
    async (_, patch) => {
      const t = createInMemoryDeps();
      const place = await givenPublishedLocation(t.deps, { tables: 2 });
      const tableId = place.tableIds[0]!;
      const before = expectOk(await getPublishedFloorPlan(t.deps, { locationId: place.locationId }));

      const edited = expectOk(await edit(t.deps, place.locationId, tableId, patch));

      const expected = {
        ...patch,
        ...(patch.rotation !== undefined ? { rotation: patch.rotation % 360 } : {}),
      };
      expect(edited).toMatchObject({ id: tableId, ...expected });
      expect(expectOk(await getPublishedFloorPlan(t.deps, { locationId: place.locationId }))).toStrictEqual(
        before,
      );
      expectOk(await publishFloorPlan(t.deps, { locationId: place.locationId }));
      const after = expectOk(await getPublishedFloorPlan(t.deps, { locationId: place.locationId }));
      expect(after.version).toBe(2);
      expect(after.rooms.flatMap((r) => r.tables).find((x) => x.id === tableId)).toMatchObject(expected);
    },
  );

  it.each<[string, TablePatch]>([
    ['minCovers above maxCovers', { minCovers: 5, maxCovers: 4 }],
    ['x outside the canvas', { x: 1000.5 }],
    ['y below zero', { y: -1 }],
  ])('When an edit makes %s, then 422 validation_failed and the table stays', async (_, patch) => {
    const t = createInMemoryDeps();
    const place = await givenPublishedLocation(t.deps, { tables: 1 });
    const before = expectOk(await getWorkingPlan(t.deps, { locationId: place.locationId }));

    expect(await edit(t.deps, place.locationId, place.tableIds[0]!, patch)).toMatchObject({
      ok: false,
      code: 'validation_failed',
    });
    expect(expectOk(await getWorkingPlan(t.deps, { locationId: place.locationId }))).toStrictEqual(before);
  });

  it('When the table is unknown, then not_found', async () => {
    const t = createInMemoryDeps();
    const place = await givenPublishedLocation(t.deps, { tables: 1 });

    expect(
      await edit(t.deps, place.locationId, '00000000-0000-4000-8000-0000000000ab', { label: 'X' }),
    ).toMatchObject({ ok: false, code: 'not_found' });
  });

  it('When a table with an open order is deactivated and republished, then the order stays open on it', async () => {
    const t = createInMemoryDeps();
    const place = await givenPublishedLocation(t.deps, { tables: 1 });
    const order = expectOk(
      await openWalkInOrder(t.deps, { locationId: place.locationId, tableIds: place.tableIds, covers: 2 }),
    );

    expectOk(await edit(t.deps, place.locationId, place.tableIds[0]!, { active: false }));
    expectOk(await publishFloorPlan(t.deps, { locationId: place.locationId }));

    expect((await t.deps.queries.orders.findById(place.locationId, order.id))?.status).toBe('open');
    expect(t.store.holderOf(place.locationId, place.tableIds[0]!)).toBe(order.id);
  });
});
