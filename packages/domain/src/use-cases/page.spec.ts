import { pageOf } from './page';

describe('pageOf', () => {
  const cursorOf = (n: number) => `after-${n}`;

  it.each([
    ['no rows', [], 3, [], null],
    ['fewer rows than the limit', [1, 2], 3, [1, 2], null],
    ['exactly the limit', [1, 2, 3], 3, [1, 2, 3], null],
    ['one row more than the limit', [1, 2, 3, 4], 3, [1, 2, 3], 'after-3'],
    ['a limit of one with a further row', [7, 8], 1, [7], 'after-7'],
  ])(
    'When a query returns %s, then the page and next cursor are as listed',
    (_c, rows, limit, items, next) => {
      expect(pageOf(rows, limit, cursorOf)).toEqual({ items, next });
    },
  );
});
