import fc from 'fast-check';
import { sequentialIds, workingPlan } from '../../test/builders';
import type { FloorPlanImportInput, ImportRoomInput, ImportTableInput } from './floor-plan';
import { planImport } from './floor-plan-import';

const externalId = fc.string({ minLength: 1, maxLength: 16 });
/** A share of the canvas, edges included: the centre may sit exactly on 0 or on the far side. */
const share = fc.oneof(fc.constant(0), fc.constant(1), fc.double({ min: 0, max: 1, noNaN: true }));
const rotation = fc.option(
  fc.oneof(
    fc.constant(-0),
    fc.constant(360),
    fc.constant(-360),
    fc.double({ min: -1e6, max: 1e6, noNaN: true }),
  ),
  { nil: undefined },
);

/** Table geometry as shares of its room's canvas, covers consistent with seatCount. */
const tableSpec = fc.record({
  externalId,
  label: fc.string({ minLength: 1, maxLength: 40 }),
  seatCount: fc.integer({ min: 1, max: 1000 }),
  fx: share,
  fy: share,
  covers: fc.option(fc.tuple(fc.integer({ min: 1, max: 2000 }), fc.integer({ min: 1, max: 2000 })), {
    nil: undefined,
  }),
  rotation,
  shape: fc.option(fc.constantFrom('round' as const, 'square' as const, 'rectangle' as const), {
    nil: undefined,
  }),
});

const roomSpec = fc.record({
  externalId,
  name: fc.string({ minLength: 1, maxLength: 120 }),
  order: fc.option(fc.integer({ min: 0, max: 2_147_483_647 }), { nil: undefined }),
  canvas: fc.option(fc.tuple(fc.integer({ min: 1, max: 100_000 }), fc.integer({ min: 1, max: 100_000 })), {
    nil: undefined,
  }),
  tableCount: fc.nat({ max: 6 }),
});

const importArb: fc.Arbitrary<FloorPlanImportInput> = fc
  .uniqueArray(roomSpec, { minLength: 1, maxLength: 5, selector: (r) => r.externalId })
  .chain((rooms) => {
    const total = rooms.reduce((n, r) => n + r.tableCount, 0);
    return fc.tuple(
      fc.constant(rooms),
      fc.uniqueArray(tableSpec, { minLength: total, maxLength: total, selector: (t) => t.externalId }),
      fc.boolean(),
    );
  })
  .map(([rooms, tables, replaceDraft]) => {
    let next = 0;
    const roomInputs: ImportRoomInput[] = rooms.map((r) => {
      const [width, height] = r.canvas ?? [1000, 1000];
      const own = tables.slice(next, (next += r.tableCount));
      return {
        externalId: r.externalId,
        name: r.name,
        ...(r.order === undefined ? {} : { order: r.order }),
        ...(r.canvas === undefined ? {} : { canvasWidth: width, canvasHeight: height }),
        tables: own.map((t): ImportTableInput => {
          const [a, b] = t.covers ?? [1, t.seatCount];
          return {
            externalId: t.externalId,
            label: t.label,
            seatCount: t.seatCount,
            x: t.fx * width,
            y: t.fy * height,
            ...(t.covers === undefined ? {} : { minCovers: Math.min(a, b), maxCovers: Math.max(a, b) }),
            ...(t.rotation === undefined ? {} : { rotation: t.rotation }),
            ...(t.shape === undefined ? {} : { shape: t.shape }),
          };
        }),
      };
    });
    return { rooms: roomInputs, replaceDraft };
  });

describe('planImport (property)', () => {
  it('When any valid import is planned, then every table maps once to a new unique id and rotations lie in [0, 360)', () => {
    fc.assert(
      fc.property(importArb, (input) => {
        const outcome = planImport(workingPlan(), input, sequentialIds('new'));

        expect(outcome.ok).toBe(true);
        if (!outcome.ok) return;
        const { rooms, result } = outcome.value;
        const inputTables = input.rooms.flatMap((r) => r.tables);
        const tables = rooms.flatMap((r) => r.tables);
        expect(result.mapping.map((m) => m.externalTableId)).toEqual(inputTables.map((t) => t.externalId));
        expect(result.mapping.map((m) => m.tableId)).toEqual(tables.map((t) => t.id));
        expect(result.rooms.map((r) => r.externalRoomId)).toEqual(input.rooms.map((r) => r.externalId));
        const ids = [...rooms.map((r) => r.id), ...tables.map((t) => t.id)];
        expect(new Set(ids).size).toBe(ids.length);
        for (const t of tables) {
          expect(t.rotation).toBeGreaterThanOrEqual(0);
          expect(t.rotation).toBeLessThan(360);
          expect(Object.is(t.rotation, -0)).toBe(false);
          expect(t.minCovers).toBeLessThanOrEqual(t.maxCovers);
        }
      }),
      { numRuns: 300 },
    );
  });
});
