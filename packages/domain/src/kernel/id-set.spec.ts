import { lockOrder, sameIdSet, without } from './id-set';

describe('sameIdSet', () => {
  it.each([
    [[], [], true],
    [['a'], ['a'], true],
    [['a', 'b'], ['b', 'a'], true],
    [['a', 'b', 'a'], ['b', 'a'], true],
    [['a'], ['a', 'b'], false],
    [['a', 'b'], ['a'], false],
    [['a', 'c'], ['a', 'b'], false],
    [['a', 'a'], ['a', 'b'], false],
    [[], ['a'], false],
  ])('When %j is compared with %j, then they are the same set: %s', (a, b, same) => {
    expect(sameIdSet(a, b)).toBe(same);
    expect(sameIdSet(b, a)).toBe(same);
  });
});

describe('without', () => {
  it.each([
    [['a', 'b', 'c'], ['b'], ['a', 'c']],
    [['c', 'a', 'b'], [], ['c', 'a', 'b']],
    [['a', 'b'], ['a', 'b', 'z'], []],
    [[], ['a'], []],
  ])('When %j drops %j, then %j remains in its order', (a, b, rest) => {
    expect(without(a, b)).toEqual(rest);
  });
});

describe('lockOrder', () => {
  it.each([
    [
      ['t-3', 't-1', 't-2'],
      ['t-1', 't-2', 't-3'],
    ],
    [
      ['b', 'a', 'b', 'a'],
      ['a', 'b'],
    ],
    [[], []],
  ])('When tables %j are to be locked, then the order is %j', (ids, order) => {
    const input = [...ids];

    expect(lockOrder(input)).toEqual(order);
    expect(input).toEqual(ids);
  });
});
