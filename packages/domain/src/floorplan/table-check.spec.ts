import type { PublishedTables } from './floor-plan-repository.port';
import { checkTableIds } from './table-check';

const published: PublishedTables = {
  version: 2,
  tables: [
    { id: 't-1', active: true },
    { id: 't-2', active: false },
    { id: 't-3', active: true },
  ],
};

describe('checkTableIds', () => {
  it.each<[string, PublishedTables | null, string[]]>([
    ['no ids are named before the first publish', null, []],
    ['no ids are named after a publish', published, []],
    ['every id is an active published table', published, ['t-3', 't-1']],
  ])('When %s, then the ids are accepted', (_c, plan, ids) => {
    expect(checkTableIds(plan, ids)).toEqual({ ok: true, value: undefined });
  });

  it('When ids are named before the first publish, then floorplan_not_published answers', () => {
    expect(checkTableIds(null, ['t-1'])).toMatchObject({
      ok: false,
      code: 'floorplan_not_published',
      occupiedBy: null,
    });
  });

  it.each<[string, string[], string[], string[]]>([
    ['an unknown id', ['t-9'], ['t-9'], ['/tableIds/0']],
    ['an inactive id', ['t-2'], ['t-2'], ['/tableIds/0']],
    [
      'a mix of active, inactive and unknown ids',
      ['t-1', 't-2', 't-9'],
      ['t-2', 't-9'],
      ['/tableIds/1', '/tableIds/2'],
    ],
  ])('When a write names %s, then unknown_table_id names exactly the bad ones', (_c, ids, bad, paths) => {
    const outcome = checkTableIds(published, ids);

    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.code).toBe('unknown_table_id');
    for (const id of bad) expect(outcome.message).toContain(id);
    for (const id of ids.filter((i) => !bad.includes(i))) expect(outcome.message).not.toContain(id);
    expect(outcome.details?.map((d) => d.path)).toEqual(paths);
  });
});
