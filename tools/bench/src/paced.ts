import { Pool } from 'undici';
import type { LoadResult } from './load';
import { buckets, round, summarize } from './report/stats';

export interface PacedRequest {
  method: 'GET' | 'PUT' | 'POST';
  path: string;
  body?: string;
}

export interface PacedOptions {
  url: string;
  rate: number;
  durationS: number;
  connections: number;
  headers: Record<string, string>;
  next: () => PacedRequest;
  expected: readonly number[];
  onResponse?: (status: number, body: string) => void;
}

/**
 * Open-loop load at an even rate: request k is due at start + k / rate, whether or not
 * earlier ones have answered, and its latency counts from when it was due (so queueing in
 * the client is not hidden). autocannon's `overallRate` releases each second's requests
 * together, which measures bursts rather than a steady rate.
 */
export async function runPaced(options: PacedOptions): Promise<LoadResult> {
  const pool = new Pool(options.url, { connections: options.connections, pipelining: 1 });
  const samples: [number, number][] = [];
  const statuses: Record<string, number> = {};
  let errors = 0;
  const intervalMs = 1000 / options.rate;
  const total = Math.floor(options.rate * options.durationS);
  const started = performance.now();
  const inFlight = new Set<Promise<void>>();
  for (let k = 0; k < total; k++) {
    const due = started + k * intervalMs;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((r) => setTimeout(r, wait));
    const request = options.next();
    const sent = (async () => {
      try {
        const res = await pool.request({ ...request, headers: options.headers });
        const body = await res.body.text();
        samples.push([due - started, performance.now() - due]);
        statuses[res.statusCode] = (statuses[res.statusCode] ?? 0) + 1;
        if (!options.expected.includes(res.statusCode)) errors++;
        options.onResponse?.(res.statusCode, body);
      } catch {
        errors++;
      }
    })();
    inFlight.add(sent);
    void sent.finally(() => inFlight.delete(sent));
  }
  await Promise.all(inFlight);
  await pool.close();
  return {
    requests: samples.length,
    rps: round(samples.length / options.durationS, 0),
    latency: summarize(samples.map(([, l]) => l)),
    statuses,
    errors,
    timeline: buckets(samples),
  };
}
