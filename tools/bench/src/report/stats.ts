/** Nearest-rank percentile of an ascending-sorted list; NaN for an empty list. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]!;
}

export interface LatencySummary {
  count: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
}

export function summarize(latenciesMs: readonly number[]): LatencySummary {
  const sorted = [...latenciesMs].sort((a, b) => a - b);
  return {
    count: sorted.length,
    p50: round(percentile(sorted, 50)),
    p90: round(percentile(sorted, 90)),
    p99: round(percentile(sorted, 99)),
    max: round(sorted[sorted.length - 1] ?? Number.NaN),
  };
}

export interface Bucket {
  /** Start of the bucket, ms since the run started. */
  atMs: number;
  count: number;
  p50: number;
  p99: number;
}

/** Latency over time: samples `[msSinceStart, latencyMs]` grouped into buckets of `widthMs`. */
export function buckets(samples: readonly (readonly [number, number])[], widthMs = 250): Bucket[] {
  const groups = new Map<number, number[]>();
  for (const [at, latency] of samples) {
    const key = Math.floor(at / widthMs);
    const group = groups.get(key) ?? [];
    group.push(latency);
    groups.set(key, group);
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

export const round = (x: number, digits = 2) => Math.round(x * 10 ** digits) / 10 ** digits;
