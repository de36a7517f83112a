import { randomUUID } from 'node:crypto';
import type { Room, Table, WorkingPlan } from '@pis/domain';
import { aRoom, aTable } from '@pis/domain/test-support';
import { at } from '@pis/domain/test-support';
import { commit, useAdapters, type MakeAdapters } from './adapter-set';
import { givenDraftTables, givenLocationRow, publishWorkingPlan } from './fixtures';

const byId = <T extends { id: string }>(a: T, b: T) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** `FloorPlanRepository` and `FloorPlanQueries`. */
export function describeFloorPlanRepositoryContract(name: string, make: MakeAdapters): void {
  describe(`${name}: floor plan repository contract`, () => {
    const adapters = useAdapters(make);

    const lockPlan = (locationId: string) =>
      commit(adapters().uow, (tx) => tx.floorPlans.lockWorkingPlan(locationId));

    /** Two rooms stored out of order, tables with labels out of order and with a tie. */
    function unorderedRooms(): Room[] {
      const late = aRoom(0, { order: 2, name: 'Terrace', externalId: null, decorations: [] });
      const early = aRoom(0, {
        order: 1,
        name: 'Main',
        canvasWidth: 1200.5,
        canvasHeight: 640,
        decorations: [
          { kind: 'wall', x: 0, y: 0, width: 1200, height: 10, rotation: 0, text: null },
          { kind: 'label', x: 5.25, y: 7.5, width: 80, height: 20, rotation: 359.5, text: 'Kitchen' },
        ],
      });
      early.tables = [
        aTable(early.id, {
          label: 'B2',
          externalId: 'ext-b2',
          shape: 'rectangle',
          seatCount: 6,
          maxCovers: 6,
          rotation: 90,
        }),
        aTable(early.id, { label: 'A1', externalId: null, x: 0, y: 640, minCovers: 2 }),
        aTable(early.id, { label: 'B1', active: false, x: 1200.5, y: 0.25 }),
        aTable(early.id, { label: 'B1', shape: 'square', rotation: 12.75 }),
      ];
      late.tables = [aTable(late.id, { label: 'C1' })];
      return [late, early];
    }

    /** What lockWorkingPlan promises: rooms by (order, id), tables by (label, id). */
    function ordered(rooms: Room[]): Room[] {
      return [...rooms]
        .sort((a, b) => a.order - b.order || byId(a, b))
        .map((room) => ({
          ...room,
          tables: [...room.tables].sort((a, b) =>
            a.label < b.label ? -1 : a.label > b.label ? 1 : byId(a, b),
          ),
        }));
    }

    it('When a location has no rooms, then its working plan is empty with no published version', async () => {
      const location = await givenLocationRow(adapters().uow);

      const expected: WorkingPlan = {
        locationId: location.id,
        status: 'empty',
        publishedVersion: null,
        publishedAt: null,
        rooms: [],
      };
      expect(await lockPlan(location.id)).toStrictEqual(expected);
      expect(await adapters().queries.floorPlans.workingPlan(location.id)).toStrictEqual(expected);
      expect(await adapters().queries.floorPlans.latestPublished(location.id)).toBeNull();
    });

    it('When a draft is stored, then it reads back as a draft, rooms by order then id and tables by label then id, every field kept', async () => {
      const location = await givenLocationRow(adapters().uow);
      const rooms = unorderedRooms();

      await commit(adapters().uow, (tx) => tx.floorPlans.replaceDraft(location.id, rooms));

      const expected: WorkingPlan = {
        locationId: location.id,
        status: 'draft',
        publishedVersion: null,
        publishedAt: null,
        rooms: ordered(rooms),
      };
      expect(await lockPlan(location.id)).toStrictEqual(expected);
      expect(await adapters().queries.floorPlans.workingPlan(location.id)).toStrictEqual(expected);
    });

    it('When two rooms share an order, then they are ordered by id', async () => {
      const location = await givenLocationRow(adapters().uow);
      const rooms = [aRoom(1, { order: 3 }), aRoom(1, { order: 3 }), aRoom(1, { order: 0 })];

      await commit(adapters().uow, (tx) => tx.floorPlans.replaceDraft(location.id, rooms));

      const sameOrder = rooms.slice(0, 2).sort(byId);
      expect((await lockPlan(location.id)).rooms.map((r) => r.id)).toEqual([
        rooms[2]!.id,
        ...sameOrder.map((r) => r.id),
      ]);
    });

    it('When a draft is replaced, then only the new rooms and tables remain', async () => {
      const { location } = await givenDraftTables(adapters().uow, 3);
      const replacement = [aRoom(2, { name: 'Replacement' })];

      await commit(adapters().uow, (tx) => tx.floorPlans.replaceDraft(location.id, replacement));

      expect((await lockPlan(location.id)).rooms).toStrictEqual(ordered(replacement));
    });

    it('When a table is saved, then every editable field reads back changed and its neighbours stay', async () => {
      const { location, room } = await givenDraftTables(adapters().uow, 2);
      const [first, second] = room.tables as [Table, Table];
      const edited: Table = {
        ...first,
        label: 'Window 1',
        active: false,
        x: 999.5,
        y: 0,
        rotation: 270.25,
        shape: 'square',
        seatCount: 8,
        minCovers: 3,
        maxCovers: 7,
      };

      await commit(adapters().uow, (tx) => tx.floorPlans.saveTable(location.id, edited));

      const tables = (await lockPlan(location.id)).rooms[0]!.tables;
      expect(tables).toStrictEqual([second, edited]);
    });

    it('When a plan is published, then the working plan says published with its version and the snapshot reads back', async () => {
      const { location } = await givenDraftTables(adapters().uow, 3);

      const plan = await commit(adapters().uow, (tx) =>
        publishWorkingPlan(tx, location.id, at('2026-11-21T12:00:00.123456Z')),
      );

      const working = await lockPlan(location.id);
      expect(working.status).toBe('published');
      expect(working.publishedVersion).toBe(1);
      expect(working.publishedAt?.toIsoMicros()).toBe('2026-11-21T12:00:00.123456Z');
      expect(await adapters().queries.floorPlans.latestPublished(location.id)).toStrictEqual(plan);
    });

    it('When the working plan changes after a publish, then the latest published snapshot and published tables do not', async () => {
      const { location, room, tableIds } = await givenDraftTables(adapters().uow, 2);
      const plan = await commit(adapters().uow, (tx) => publishWorkingPlan(tx, location.id));
      const table = room.tables[0]!;

      await commit(adapters().uow, (tx) =>
        tx.floorPlans.saveTable(location.id, { ...table, label: 'Renamed', active: false }),
      );

      expect(await adapters().queries.floorPlans.latestPublished(location.id)).toStrictEqual(plan);
      const published = await commit(adapters().uow, (tx) =>
        tx.floorPlans.publishedTables(location.id, tableIds),
      );
      expect(published?.version).toBe(1);
      expect([...(published?.tables ?? [])].sort(byId)).toEqual(
        [...tableIds].sort().map((id) => ({ id, active: true })),
      );
      expect((await lockPlan(location.id)).rooms[0]!.tables.find((t) => t.id === table.id)).toMatchObject({
        label: 'Renamed',
        active: false,
      });
    });

    it('When the plan is published again, then version 2 replaces the snapshot and published tables follow it', async () => {
      const { location, room } = await givenDraftTables(adapters().uow, 2);
      await commit(adapters().uow, (tx) => publishWorkingPlan(tx, location.id));
      const table = room.tables[1]!;
      await commit(adapters().uow, (tx) => tx.floorPlans.saveTable(location.id, { ...table, active: false }));

      const second = await commit(adapters().uow, (tx) =>
        publishWorkingPlan(tx, location.id, at('2026-11-22T12:00:00.000001Z')),
      );

      expect(second.version).toBe(2);
      expect(await adapters().queries.floorPlans.latestPublished(location.id)).toStrictEqual(second);
      const working = await lockPlan(location.id);
      expect([working.publishedVersion, working.publishedAt?.toIsoMicros()]).toEqual([
        2,
        '2026-11-22T12:00:00.000001Z',
      ]);
      const published = await commit(adapters().uow, (tx) =>
        tx.floorPlans.publishedTables(location.id, [table.id]),
      );
      expect(published).toStrictEqual({ version: 2, tables: [{ id: table.id, active: false }] });
    });

    it('When table ids are looked up before the first publish, then the answer is null', async () => {
      const { location, tableIds } = await givenDraftTables(adapters().uow, 2);

      expect(
        await commit(adapters().uow, (tx) => tx.floorPlans.publishedTables(location.id, tableIds)),
      ).toBeNull();
    });

    it("When unknown ids and another location's ids are looked up, then only this location's published tables answer", async () => {
      const mine = await givenDraftTables(adapters().uow, 2);
      const theirs = await givenDraftTables(adapters().uow, 1);
      await commit(adapters().uow, (tx) => publishWorkingPlan(tx, mine.location.id));
      await commit(adapters().uow, (tx) => publishWorkingPlan(tx, theirs.location.id));
      const asked = [mine.tableIds[0]!, randomUUID(), theirs.tableIds[0]!];

      const published = await commit(adapters().uow, (tx) =>
        tx.floorPlans.publishedTables(mine.location.id, asked),
      );

      expect(published).toStrictEqual({ version: 1, tables: [{ id: mine.tableIds[0], active: true }] });
    });

    it("When one location has a plan, then another location's working plan stays empty", async () => {
      const { location } = await givenDraftTables(adapters().uow, 2);
      await commit(adapters().uow, (tx) => publishWorkingPlan(tx, location.id));
      const other = await givenLocationRow(adapters().uow);

      expect((await lockPlan(other.id)).status).toBe('empty');
      expect((await lockPlan(other.id)).rooms).toEqual([]);
      expect(await adapters().queries.floorPlans.latestPublished(other.id)).toBeNull();
    });
  });
}
