import { changeCount, changesByTable, fieldChanges } from './changes';
import type { PublishedTable } from './types';

const table: PublishedTable = {
  id: 't-1',
  label: '1',
  shape: 'round',
  seatCount: 4,
  minCovers: 1,
  maxCovers: 4,
  active: true,
  x: 100,
  y: 100,
  rotation: 0,
};

describe('changes', () => {
  const changes = {
    added: ['a'],
    deactivated: ['b'],
    reactivated: [],
    relabelled: [{ tableId: 'b', from: '2', to: 'Two' }],
    updated: ['c', 'b'],
  };

  it('When changes are grouped by table, then a table changed several ways lists each kind', () => {
    const byTable = changesByTable(changes);

    expect(Object.fromEntries(byTable)).toEqual({
      a: ['added'],
      b: ['deactivated', 'relabelled', 'updated'],
      c: ['updated'],
    });
    expect(changeCount(changes)).toBe(5);
  });

  it('When an updated table is compared, then each differing field is named with both values', () => {
    expect(fieldChanges(table, { ...table, x: 300, rotation: 90, label: 'X', active: false })).toEqual([
      'x 100 → 300',
      'rotation 0 → 90',
    ]);
  });
});
