import fc from 'fast-check';
import { buckets, percentile, summarize } from '../src/report/stats';

describe('percentile (nearest rank)', () => {
  it.each([
    { list: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10], p: 50, expected: 5 },
    { list: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10], p: 90, expected: 9 },
    { list: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10], p: 99, expected: 10 },
    { list: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10], p: 0, expected: 1 },
    { list: [7], p: 99, expected: 7 },
  ])('When the list is $list, then p$p is $expected', ({ list, p, expected }) => {
    // Act
    const value = percentile(list, p);

    // Assert
    expect(value).toBe(expected);
  });

  it('When the list is empty, then every percentile is NaN', () => {
    expect(percentile([], 50)).toBeNaN();
  });

  it('When any sorted list is given, then p is a member with at least p % of the list at or below it and fewer than p % below it', () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: 0, max: 1e6, noNaN: true }), { minLength: 1, maxLength: 300 }),
        fc.integer({ min: 1, max: 100 }),
        (values, p) => {
          const sorted = [...values].sort((a, b) => a - b);
          const value = percentile(sorted, p);
          const atOrBelow = sorted.filter((v) => v <= value).length;
          const below = sorted.filter((v) => v < value).length;
          expect(sorted).toContain(value);
          expect(atOrBelow / sorted.length).toBeGreaterThanOrEqual(p / 100);
          expect(below / sorted.length).toBeLessThan(p / 100);
        },
      ),
    );
  });
});

describe('summarize', () => {
  it('When latencies come unsorted, then the summary is of the sorted list', () => {
    // Arrange
    const latencies = [9, 1, 5, 3, 7, 2, 8, 4, 10, 6];

    // Act
    const summary = summarize(latencies);

    // Assert
    expect(summary).toEqual({ count: 10, mean: 5.5, p50: 5, p90: 9, p99: 10, max: 10 });
  });
});

describe('buckets (latency over time)', () => {
  it('When samples complete at different times, then each lands in the bucket of its completion time', () => {
    // Arrange: two samples in [0, 250), one in [250, 500), none in [500, 750), one in [750, 1000)
    const samples = [
      [0, 10],
      [249.9, 30],
      [250, 5],
      [760, 1],
    ] as const;

    // Act
    const result = buckets(samples, 250);

    // Assert
    expect(result).toEqual([
      { atMs: 0, count: 2, p50: 10, p99: 30 },
      { atMs: 250, count: 1, p50: 5, p99: 5 },
      { atMs: 750, count: 1, p50: 1, p99: 1 },
    ]);
  });

  it('When any samples are bucketed, then the counts add up, buckets are ordered and each holds its own time range', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.tuple(
            fc.double({ min: 0, max: 60_000, noNaN: true }),
            fc.double({ min: 0, max: 1e4, noNaN: true }),
          ),
        ),
        fc.integer({ min: 1, max: 5_000 }),
        (samples, width) => {
          const result = buckets(samples, width);
          expect(result.reduce((n, b) => n + b.count, 0)).toBe(samples.length);
          result.forEach((b, i) => {
            expect(b.atMs % width).toBe(0);
            if (i > 0) expect(b.atMs).toBeGreaterThan(result[i - 1]!.atMs);
            const inside = samples.filter(([at]) => at >= b.atMs && at < b.atMs + width);
            expect(inside).toHaveLength(b.count);
            expect(b.p50).toBeLessThanOrEqual(b.p99);
          });
        },
      ),
    );
  });
});
