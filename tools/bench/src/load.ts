import autocannon from 'autocannon';
import { buckets, summarize, round, type Bucket, type LatencySummary } from './report/stats';

export interface LoadOptions {
  url: string;
  connections: number;
  durationS: number;
  /** Requests per second over all connections; unset: as fast as the server answers. */
  overallRate?: number;
  headers?: Record<string, string>;
  requests: autocannon.Request[];
  /** Statuses that are outcomes of the scenario rather than errors (e.g. 409 when a table is taken). */
  expected: readonly number[];
}

export interface LoadResult {
  requests: number;
  rps: number;
  latency: LatencySummary;
  statuses: Record<string, number>;
  /** Unexpected statuses, socket errors and timeouts. */
  errors: number;
  timeline: Bucket[];
}

/** One autocannon run; per-response latencies are kept for percentiles and the timeline. */
export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const samples: [number, number][] = [];
  const statuses: Record<string, number> = {};
  const started = performance.now();
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url: options.url,
        connections: options.connections,
        duration: options.durationS,
        overallRate: options.overallRate,
        headers: options.headers,
        requests: options.requests,
        timeout: 10,
      },
      (error, done) => (error ? reject(error) : resolve(done)),
    );
    instance.on('response', (_client: unknown, status: number, _bytes: number, responseTime: number) => {
      samples.push([performance.now() - started, responseTime]);
      statuses[status] = (statuses[status] ?? 0) + 1;
    });
  });
  const unexpected = Object.entries(statuses)
    .filter(([status]) => !options.expected.includes(Number(status)))
    .reduce((n, [, count]) => n + count, 0);
  return {
    requests: samples.length,
    rps: round(samples.length / options.durationS, 0),
    latency: summarize(samples.map(([, latency]) => latency)),
    statuses,
    errors: unexpected + result.errors,
    timeline: buckets(samples),
  };
}
