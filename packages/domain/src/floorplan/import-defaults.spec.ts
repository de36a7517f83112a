import { withImportDefaults } from './floor-plan-import';

const sent = {
  rooms: [
    {
      externalId: 'r-1',
      name: 'Main',
      tables: [{ externalId: 't-1', label: 'T1', seatCount: 5, x: 1, y: 1, rotation: -60 + 2 ** -44 }],
      decorations: [{ kind: 'bar' as const, x: 0, y: 0, width: 1, height: 1 }],
    },
    { externalId: 'r-2', name: 'Terrace', order: 7 },
  ],
};

describe('withImportDefaults', () => {
  it('When defaults are filled twice, then the second time changes nothing', () => {
    const once = withImportDefaults(sent);
    expect(withImportDefaults(once)).toEqual(once);
  });

  it('When a rotation is sent, then it is left for planImport to normalise, once', () => {
    const [room] = withImportDefaults(sent).rooms;
    expect(room!.tables[0]!.rotation).toBe(-60 + 2 ** -44);
    expect(room!.decorations[0]!.rotation).toBe(0);
  });
});
