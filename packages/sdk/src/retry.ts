/**
 * The client's own retries. A request is sent again after a network failure (the connection
 * dropped, refused or reset) or an answer that says "later": 429, 500, 502, 503, 504, and
 * 409 `idempotency_in_progress`. GET, PUT and DELETE are idempotent as the API defines them
 * and are retried as they are. A POST is retried only because it carries an
 * `Idempotency-Key`: the client generates one per logical call (a UUID), before the first
 * attempt, and sends that same key on every retry, so the service applies the POST once and
 * answers the retries with the first answer. A key the caller set wins. Other methods are
 * never retried.
 */
export interface RetryOptions {
  /** Attempts after the first; 0 turns retrying (and the generated keys) off. Default 2. */
  retries?: number;
  /** The wait before the first retry, doubled for each next one, with jitter. Default 250 ms. */
  minDelayMs?: number;
  /** The longest wait; an answer whose `Retry-After` asks for longer is returned as it is. Default 5000 ms. */
  maxDelayMs?: number;
}

type Fetch = (input: Request, init?: RequestInit) => Promise<Response>;

const RETRIED_STATUSES = new Set([429, 500, 502, 503, 504]);
const IDEMPOTENT = new Set(['GET', 'HEAD', 'PUT', 'DELETE']);

export const IDEMPOTENCY_KEY = 'Idempotency-Key';

/** A fresh idempotency key: a random UUID (Node 20 and every browser have `crypto.randomUUID`). */
export const newIdempotencyKey = (): string => globalThis.crypto.randomUUID();

/** `fetch` with the retries above. */
export function retryingFetch(base: Fetch, options: RetryOptions = {}): Fetch {
  const retries = Math.max(0, Math.floor(options.retries ?? 2));
  const minDelayMs = options.minDelayMs ?? 250;
  const maxDelayMs = options.maxDelayMs ?? 5000;
  if (retries === 0) return base;

  return async (input, init) => {
    const method = input.method.toUpperCase();
    const headers = new Headers(input.headers);
    if (method === 'POST' && !headers.has(IDEMPOTENCY_KEY)) headers.set(IDEMPOTENCY_KEY, newIdempotencyKey());
    const retryable = IDEMPOTENT.has(method) || headers.has(IDEMPOTENCY_KEY);
    // Read once, so every attempt sends the same bytes.
    const body = input.body === null ? null : await input.arrayBuffer();
    const attempt = () =>
      base(
        new Request(input.url, {
          method,
          headers,
          body,
          signal: input.signal,
          redirect: input.redirect,
          credentials: input.credentials,
        }),
        init,
      );

    for (let retry = 0; ; retry += 1) {
      const last = !retryable || retry >= retries;
      let response: Response;
      try {
        response = await attempt();
      } catch (failure) {
        if (last || input.signal.aborted) throw failure;
        await wait(backoff(retry, minDelayMs, maxDelayMs), input.signal);
        continue;
      }
      if (last || !(await answersLater(response))) return response;
      const asked = retryAfterMs(response);
      if (asked !== null && asked > maxDelayMs) return response;
      await response.body?.cancel();
      await wait(asked ?? backoff(retry, minDelayMs, maxDelayMs), input.signal);
    }
  };
}

async function answersLater(response: Response): Promise<boolean> {
  if (RETRIED_STATUSES.has(response.status)) return true;
  if (response.status !== 409) return false;
  const body: unknown = await response
    .clone()
    .json()
    .catch(() => null);
  return (body as { error?: { code?: unknown } } | null)?.error?.code === 'idempotency_in_progress';
}

/** `Retry-After` in seconds or as an HTTP date, in milliseconds; null when absent or unreadable. */
function retryAfterMs(response: Response): number | null {
  const value = response.headers.get('retry-after');
  if (value === null) return null;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - Date.now());
}

/** Exponential, with "equal jitter": between half and all of the doubled delay. */
function backoff(retry: number, minDelayMs: number, maxDelayMs: number): number {
  const delay = Math.min(maxDelayMs, minDelayMs * 2 ** retry);
  return delay / 2 + Math.random() * (delay / 2);
}

function wait(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', abort);
      resolve();
    }, ms);
    const abort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener('abort', abort, { once: true });
  });
}
