import { buckets, round, summarize, type Bucket, type LatencySummary, type Sample } from '../report/stats';

/**
 * What an answer meant, as `<status>` or `<status> <outcome-or-code>`: `200 applied`,
 * `200 stale`, `409 table_occupied`, `200` (a body without either). Only the first bytes are
 * looked at for the outcome, so a large body costs nothing.
 */
export function classify(status: number, body: string): string {
  if (status >= 200 && status < 300) {
    const outcome = /"outcome":"(\w+)"/.exec(body.slice(0, 40));
    return outcome ? `${status} ${outcome[1]}` : String(status);
  }
  const code = /"code":"(\w+)"/.exec(body.slice(0, 200));
  return code ? `${status} ${code[1]}` : String(status);
}

export type LoadMode = 'closed-loop' | 'paced' | 'autocannon-rate' | 'bare-pg';

export interface LoadResult {
  mode: LoadMode;
  connections: number;
  /** Requests per second asked for (paced and rate-limited runs). */
  targetRate: number | null;
  seconds: number;
  requests: number;
  rps: number;
  latency: LatencySummary;
  /** Answers by `classify`. */
  outcomes: Record<string, number>;
  /** Non-2xx answers that are not an expected outcome, plus connection errors and timeouts. */
  errors: number;
  /** 2xx answers that are not the expected outcome (e.g. `200 stale` in put-applied). */
  unexpected: number;
  /** Expected non-2xx outcomes (e.g. `409 table_occupied` in seat-move). */
  expectedRefusals: number;
  transportErrors: number;
  timeline: Bucket[];
}

export interface RunRecord {
  mode: LoadMode;
  connections: number;
  targetRate: number | null;
  seconds: number;
  samples: readonly Sample[];
  outcomes: Record<string, number>;
  transportErrors: number;
  /** Outcomes that are the scenario's own; the rest are errors (non-2xx) or unexpected (2xx). */
  expected: readonly string[];
}

/**
 * Sums up one run: throughput, percentiles, outcomes sorted into expected, unexpected and
 * errors. A 2xx outcome (or `ok`, a bare-pg statement that succeeded) is a success.
 */
export function loadResult(run: RunRecord): LoadResult {
  let errors = run.transportErrors;
  let unexpected = 0;
  let expectedRefusals = 0;
  for (const [outcome, n] of Object.entries(run.outcomes)) {
    const success = /^2\d\d\b/.test(outcome) || outcome === 'ok';
    if (run.expected.includes(outcome)) {
      if (!success) expectedRefusals += n;
    } else if (success) unexpected += n;
    else errors += n;
  }
  return {
    mode: run.mode,
    connections: run.connections,
    targetRate: run.targetRate,
    seconds: round(run.seconds, 1),
    requests: run.samples.length,
    rps: Math.round(run.samples.length / run.seconds),
    latency: summarize(run.samples.map(([, latency]) => latency)),
    outcomes: run.outcomes,
    errors,
    unexpected,
    expectedRefusals,
    transportErrors: run.transportErrors,
    timeline: buckets(run.samples),
  };
}

/** Collects samples and outcomes of one run as it goes. */
export class LoadRecorder {
  readonly samples: Sample[] = [];
  readonly outcomes: Record<string, number> = {};
  transportErrors = 0;
  readonly startedAt = performance.now();

  constructor(private readonly expected: readonly string[]) {}

  record(outcome: string, latencyMs: number): void {
    this.samples.push([performance.now() - this.startedAt, latencyMs]);
    this.outcomes[outcome] = (this.outcomes[outcome] ?? 0) + 1;
  }

  result(mode: LoadMode, connections: number, targetRate: number | null): LoadResult {
    return loadResult({
      mode,
      connections,
      targetRate,
      seconds: (performance.now() - this.startedAt) / 1000,
      samples: this.samples,
      outcomes: this.outcomes,
      transportErrors: this.transportErrors,
      expected: this.expected,
    });
  }
}
