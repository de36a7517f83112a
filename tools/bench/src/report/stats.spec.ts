import { buckets, percentile, summarize } from './stats';
import { niceCeil } from './svg';

describe('benchmark statistics', () => {
  it.each([
    [50, 5],
    [90, 9],
    [99, 10],
    [100, 10],
    [1, 1],
  ])('When the %ith percentile of 1..10 is taken, then it is the nearest rank %i', (p, expected) => {
    expect(percentile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], p)).toBe(expected);
  });

  it('When there are no samples, then the percentile is NaN and the summary counts none', () => {
    expect(percentile([], 50)).toBeNaN();
    expect(summarize([]).count).toBe(0);
  });

  it('When samples are bucketed by time, then each bucket holds its own latencies in time order', () => {
    const result = buckets(
      [
        [10, 5],
        [260, 1],
        [100, 7],
        [300, 3],
      ],
      250,
    );
    expect(result).toEqual([
      { atMs: 0, count: 2, p50: 5, p99: 7 },
      { atMs: 250, count: 2, p50: 1, p99: 3 },
    ]);
  });

  it.each([
    [0.7, 1],
    [3, 5],
    [12, 20],
    [250, 500],
    [1000, 1000],
  ])('When an axis must reach %d, then it ends at %d', (value, ceil) => {
    expect(niceCeil(value)).toBe(ceil);
  });
});
