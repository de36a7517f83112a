import { Agent, request } from 'node:http';
import { classify, LoadRecorder, type LoadResult } from './outcomes';

export interface PacedRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
  onResponse?: (status: number, body: string) => void;
}

export interface PacedOptions {
  url: string;
  /** Requests per second, sent at even intervals whatever the answers do (open loop). */
  rate: number;
  durationS: number;
  /** Keep-alive connections at most; a request waits for a free one (and that wait counts). */
  connections: number;
  next: () => PacedRequest;
  expected: readonly string[];
}

/**
 * An open-loop load: request k is due at k / rate seconds and its latency runs from that
 * moment to the end of its answer, so time spent waiting for a connection or for a late
 * timer counts (no coordinated omission). autocannon's `overallRate` cannot do this: each
 * connection sends its share of every second back to back, so a "half rate" run is a full-rate
 * burst for part of each second and idle for the rest.
 */
export async function runPaced(options: PacedOptions): Promise<LoadResult> {
  const recorder = new LoadRecorder(options.expected);
  const agent = new Agent({ keepAlive: true, maxSockets: options.connections });
  const { hostname, port } = new URL(options.url);
  const interval = 1000 / options.rate;
  const total = Math.floor(options.rate * options.durationS);
  let sent = 0;
  let finished = 0;
  const start = performance.now();

  await new Promise<void>((resolve) => {
    const done = () => {
      if (++finished === total) resolve();
    };
    const send = (dueAt: number) => {
      const next = options.next();
      const req = request(
        { agent, hostname, port, method: next.method, path: next.path, headers: next.headers },
        (res) => {
          let body = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (body += chunk));
          res.on('end', () => {
            recorder.record(classify(res.statusCode ?? 0, body), performance.now() - dueAt);
            next.onResponse?.(res.statusCode ?? 0, body);
            done();
          });
        },
      );
      req.setTimeout(10_000, () => req.destroy(new Error('timeout')));
      req.on('error', () => {
        recorder.transportErrors++;
        done();
      });
      req.end(next.body);
    };
    const tick = () => {
      const now = performance.now();
      while (sent < total && start + sent * interval <= now) send(start + interval * sent++);
      if (sent < total) setTimeout(tick, Math.max(0, start + sent * interval - performance.now()));
    };
    if (total === 0) resolve();
    else tick();
  });
  agent.destroy();
  return recorder.result('paced', options.connections, options.rate);
}
