/** Nearest-rank percentile of an ascending-sorted list; NaN for an empty list. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]!;
}

export interface LatencySummary {
  count: number;
  mean: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
}

export function summarize(latenciesMs: readonly number[]): LatencySummary {
  const sorted = Float64Array.from(latenciesMs).sort();
  const list = Array.from(sorted);
  const total = list.reduce((a, b) => a + b, 0);
  return {
    count: list.length,
    mean: list.length === 0 ? Number.NaN : round(total / list.length),
    p50: round(percentile(list, 50)),
    p90: round(percentile(list, 90)),
    p99: round(percentile(list, 99)),
    max: round(list[list.length - 1] ?? Number.NaN),
  };
}

/** One latency sample: when it completed (ms since the run started) and how long it took (ms). */
export type Sample = readonly [atMs: number, latencyMs: number];

export interface Bucket {
  /** Start of the bucket, ms since the run started. */
  atMs: number;
  /** Samples that completed in the bucket. */
  count: number;
  p50: number;
  p99: number;
}

/**
 * Latency over time: samples grouped into consecutive buckets of `widthMs` by completion
 * time. Buckets without a sample are left out (a chart draws a gap as a straight line).
 */
export function buckets(samples: readonly Sample[], widthMs = 250): Bucket[] {
  const groups = new Map<number, number[]>();
  for (const [at, latency] of samples) {
    const key = Math.floor(Math.max(0, at) / widthMs);
    const group = groups.get(key);
    if (group) group.push(latency);
    else groups.set(key, [latency]);
  }
  return [...groups.entries()]
    .sort(([a], [b]) => a - b)
    .map(([key, latencies]) => {
      const sorted = latencies.sort((a, b) => a - b);
      return {
        atMs: key * widthMs,
        count: sorted.length,
        p50: round(percentile(sorted, 50)),
        p99: round(percentile(sorted, 99)),
      };
    });
}

export const round = (x: number, digits = 2): number => Math.round(x * 10 ** digits) / 10 ** digits;
