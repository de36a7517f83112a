import { room, table } from '../../test/builders';
import type { Table, TablePatch } from './floor-plan';
import { applyTableEdit } from './table-edit';

const hall = room({ canvasWidth: 400, canvasHeight: 300 });
const before = table({ id: 't-1', label: 'T1', x: 100, y: 100, rotation: 30, minCovers: 2, maxCovers: 4 });

describe('applyTableEdit', () => {
  it.each<[string, TablePatch, Partial<Table>]>([
    ['a table is renamed', { label: 'Window 1' }, { label: 'Window 1' }],
    ['a table is deactivated', { active: false }, { active: false }],
    ['a table is reactivated', { active: true }, { active: true }],
    ['a table moves inside the canvas', { x: 250, y: 50 }, { x: 250, y: 50 }],
    ['a table moves onto the origin corner', { x: 0, y: 0 }, { x: 0, y: 0 }],
    ['a table moves onto the far corner', { x: 400, y: 300 }, { x: 400, y: 300 }],
    ['a table turns to -90 degrees', { rotation: -90 }, { rotation: 270 }],
    ['a table turns to 360 degrees', { rotation: 360 }, { rotation: 0 }],
    ['a table turns to 725 degrees', { rotation: 725 }, { rotation: 5 }],
    [
      'a table changes shape and seats',
      { shape: 'rectangle', seatCount: 8 },
      { shape: 'rectangle', seatCount: 8 },
    ],
    ['both covers change together', { minCovers: 6, maxCovers: 8 }, { minCovers: 6, maxCovers: 8 }],
    ['minCovers rises to maxCovers', { minCovers: 4 }, { minCovers: 4 }],
    ['a patch sends undefined for a field', { label: undefined, x: undefined }, {}],
    ['an empty patch is sent', {}, {}],
  ])('When %s, then only that changes', (_c, patch, changed) => {
    const outcome = applyTableEdit(hall, before, patch);

    expect(outcome).toEqual({ ok: true, value: { ...before, ...changed } });
  });

  it.each<[string, TablePatch, string[]]>([
    ['a table moves right of the canvas', { x: 400.5 }, ['/x']],
    ['a table moves below the canvas', { y: 301 }, ['/y']],
    ['a table moves to negative coordinates', { x: -1, y: -1 }, ['/x', '/y']],
    ['minCovers rises above maxCovers', { minCovers: 5 }, ['/minCovers']],
    ['maxCovers drops below minCovers', { maxCovers: 1 }, ['/minCovers']],
    ['both covers are sent crossed', { minCovers: 8, maxCovers: 6 }, ['/minCovers']],
  ])('When %s, then the edit is refused naming %j', (_c, patch, paths) => {
    const outcome = applyTableEdit(hall, before, patch);

    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.code).toBe('validation_failed');
    expect(outcome.details?.map((d) => d.path)).toEqual(paths);
  });

  it('When a patch carries fields that are not editable, then the id, room and externalId never change', () => {
    const sneaky = { label: 'B', id: 't-other', roomId: 'room-other', externalId: 'ext-other' } as TablePatch;

    const outcome = applyTableEdit(hall, before, sneaky);

    expect(outcome).toEqual({ ok: true, value: { ...before, label: 'B' } });
  });

  it('When a table is edited, then the given table is left as it was', () => {
    const original = structuredClone(before);

    applyTableEdit(hall, before, { label: 'B', x: 1, rotation: 90 });

    expect(before).toEqual(original);
  });
});
