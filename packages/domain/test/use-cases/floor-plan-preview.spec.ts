import { editTable, previewFloorPlanPublish, type TablePatch } from '../../src';
import { aFloorPlanImport } from '../builders';
import { aLocationWithoutPlan, expectOk } from './use-case-world';

const UNKNOWN = '00000000-0000-4000-8000-0000000000ff';
const NONE = { added: [], deactivated: [], reactivated: [], relabelled: [], updated: [] };

describe('floor plan: what a publish would change', () => {
  async function imported() {
    const world = await aLocationWithoutPlan();
    const { mapping } = expectOk(await world.importPlan(aFloorPlanImport({ tablesPerRoom: 3 })));
    const preview = () => previewFloorPlanPublish(world.deps, { locationId: world.locationId });
    const edit = async (tableId: string, patch: TablePatch) =>
      expectOk(await editTable(world.deps, { locationId: world.locationId, tableId, patch }));
    return { ...world, ids: mapping.map((m) => m.tableId), preview, edit };
  }

  it('When the plan was never published, then there is no published plan and every table would be added', async () => {
    const world = await imported();

    expect(expectOk(await world.preview())).toEqual({
      published: null,
      changes: { ...NONE, added: world.ids },
    });
  });

  it('When the working plan is what was published, then the published plan comes back and nothing would change', async () => {
    const world = await imported();
    const published = expectOk(await world.publish());

    const preview = expectOk(await world.preview());

    expect(preview.published).toMatchObject({
      version: published.version,
      publishedAt: published.publishedAt,
    });
    expect(preview.published?.rooms.flatMap((r) => r.tables.map((t) => t.id))).toEqual(world.ids);
    expect(preview.changes).toEqual(NONE);
  });

  it('When tables are edited after a publish, then the preview names each change, and after the next publish none', async () => {
    const world = await imported();
    expectOk(await world.publish());
    const [first, second, third] = world.ids as [string, string, string];
    await world.edit(first, { label: 'Window' });
    await world.edit(second, { active: false });
    await world.edit(third, { x: 400, rotation: 90 });

    const before = expectOk(await world.preview()).changes;
    expectOk(await world.publish());
    const after = expectOk(await world.preview()).changes;

    expect(before).toEqual({
      ...NONE,
      deactivated: [second],
      relabelled: [{ tableId: first, from: 'A1', to: 'Window' }],
      updated: [third],
    });
    expect(after).toEqual(NONE);
  });

  it('When a deactivated table is reactivated before the next publish, then it would be reactivated', async () => {
    const world = await imported();
    const [first] = world.ids as [string];
    await world.edit(first, { active: false });
    expectOk(await world.publish());
    await world.edit(first, { active: true });

    expect(expectOk(await world.preview()).changes).toEqual({ ...NONE, reactivated: [first] });
  });

  it('When the location has no plan, then nothing would change; an unknown location is not_found', async () => {
    const world = await aLocationWithoutPlan();

    expect(expectOk(await previewFloorPlanPublish(world.deps, { locationId: world.locationId }))).toEqual({
      published: null,
      changes: NONE,
    });
    expect(await previewFloorPlanPublish(world.deps, { locationId: UNKNOWN })).toMatchObject({
      ok: false,
      code: 'not_found',
    });
  });
});
