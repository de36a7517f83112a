import autocannon from 'autocannon';
import { classify, LoadRecorder, type LoadResult } from './outcomes';

export interface ClosedLoopOptions {
  url: string;
  connections: number;
  durationS: number;
  /** autocannon's `overallRate`: each connection sends its share of a second's requests back to back. */
  overallRate?: number;
  headers?: Record<string, string>;
  requests: autocannon.Request[];
  /** Outcomes (see `classify`) that are the scenario's own, not errors. */
  expected: readonly string[];
}

/**
 * One autocannon run: `connections` connections, each sending its next request when the
 * previous one answered. Latency of every response comes from autocannon's `response` event;
 * its outcome from the body (each request's `onResponse` runs just before that event).
 */
export async function runClosedLoop(options: ClosedLoopOptions): Promise<LoadResult> {
  const recorder = new LoadRecorder(options.expected);
  let last = '';
  const requests = options.requests.map((request): autocannon.Request => {
    const own = typeof request.onResponse === 'function' ? request.onResponse : undefined;
    return {
      ...request,
      onResponse: (status, body, context, headers) => {
        last = classify(status, body);
        own?.(status, body, context, headers);
      },
    };
  });
  await new Promise<void>((resolve, reject) => {
    const instance = autocannon(
      {
        url: options.url,
        connections: options.connections,
        duration: options.durationS,
        overallRate: options.overallRate,
        headers: options.headers,
        requests,
        timeout: 10,
      },
      (error) => (error ? reject(error) : resolve()),
    );
    instance.on('response', (_client: unknown, _status: number, _bytes: number, responseTime: number) =>
      recorder.record(last, responseTime),
    );
    instance.on('reqError', () => recorder.transportErrors++);
  });
  return recorder.result(
    options.overallRate ? 'autocannon-rate' : 'closed-loop',
    options.connections,
    options.overallRate ?? null,
  );
}
