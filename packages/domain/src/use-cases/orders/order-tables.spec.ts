import { checkOrderTables } from './order-tables';

describe('checkOrderTables', () => {
  it.each([
    ['one table', ['t-1'], []],
    ['several distinct tables', ['t-1', 't-2', 't-3'], []],
    ['no table', [], ['/tableIds']],
    ['a repeated table', ['t-1', 't-2', 't-1'], ['/tableIds/2']],
    ['a table three times', ['t-1', 't-1', 't-1'], ['/tableIds/1', '/tableIds/2']],
  ])('When an order names %s, then the details are %j', (_c, tableIds, paths) => {
    const outcome = checkOrderTables(tableIds);

    if (paths.length === 0) {
      expect(outcome).toEqual({ ok: true, value: undefined });
      return;
    }
    expect(outcome).toMatchObject({ ok: false, code: 'validation_failed' });
    expect(!outcome.ok && outcome.details?.map((d) => d.path)).toEqual(paths);
  });
});
