import { room, table } from '../../test/builders';
import type { Table } from './floor-plan';
import { floorPlanChanges } from './floor-plan-changes';

const plan = (...rooms: { id: string; tables: Table[] }[]) => ({ rooms });
const a = table({ id: 't-a', label: 'A' });
const b = table({ id: 't-b', label: 'B', x: 300 });
const before = plan(room({ id: 'room-1', tables: [a, b] }));

describe('floorPlanChanges', () => {
  it('When nothing was published before, then every table is added, inactive ones too, in plan order', () => {
    const next = plan(
      room({ id: 'room-1', tables: [a, { ...b, active: false }] }),
      room({ id: 'room-2', tables: [table({ id: 't-c' })] }),
    );

    expect(floorPlanChanges(null, next)).toEqual({
      added: ['t-a', 't-b', 't-c'],
      deactivated: [],
      reactivated: [],
      relabelled: [],
      updated: [],
    });
  });

  it('When the plan is the same, then nothing changed', () => {
    expect(floorPlanChanges(before, before)).toEqual({
      added: [],
      deactivated: [],
      reactivated: [],
      relabelled: [],
      updated: [],
    });
  });

  it('When a table is only relabelled or only deactivated, then it is not updated', () => {
    const next = plan(
      room({
        id: 'room-1',
        tables: [
          { ...a, label: 'A2' },
          { ...b, active: false },
        ],
      }),
    );

    expect(floorPlanChanges(before, next)).toEqual({
      added: [],
      deactivated: ['t-b'],
      reactivated: [],
      relabelled: [{ tableId: 't-a', from: 'A', to: 'A2' }],
      updated: [],
    });
  });

  it('When an inactive table comes back, then it is reactivated', () => {
    const inactive = plan(room({ id: 'room-1', tables: [{ ...a, active: false }, b] }));

    expect(floorPlanChanges(inactive, before).reactivated).toEqual(['t-a']);
  });

  it.each<[string, Partial<Table>]>([
    ['moved along x', { x: 101 }],
    ['moved along y', { y: 99 }],
    ['rotated', { rotation: 90 }],
    ['reshaped', { shape: 'square' }],
    ['given more seats', { seatCount: 6 }],
    ['given other covers', { minCovers: 2 }],
    ['given other maximum covers', { maxCovers: 3 }],
  ])('When a table is %s, then it is updated and nothing else', (_what, patch) => {
    const next = plan(room({ id: 'room-1', tables: [{ ...a, ...patch }, b] }));

    expect(floorPlanChanges(before, next)).toEqual({
      added: [],
      deactivated: [],
      reactivated: [],
      relabelled: [],
      updated: ['t-a'],
    });
  });

  it('When a table is relabelled, moved and deactivated at once, then it is in all three lists', () => {
    const next = plan(room({ id: 'room-1', tables: [{ ...a, label: 'Z', x: 5, active: false }, b] }));

    expect(floorPlanChanges(before, next)).toMatchObject({
      deactivated: ['t-a'],
      relabelled: [{ tableId: 't-a', from: 'A', to: 'Z' }],
      updated: ['t-a'],
    });
  });

  it('When a table stands in another room than before, then it is updated', () => {
    const next = plan(room({ id: 'room-1', tables: [a] }), room({ id: 'room-2', tables: [b] }));

    expect(floorPlanChanges(before, next).updated).toEqual(['t-b']);
  });
});
