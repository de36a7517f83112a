import type { AttemptFollowUp } from '@pis/ports';

export interface RetryPolicyOptions {
  /** `WEBHOOK_RETRY_DELAYS_MS`: the wait before each retry; its length is the number of retries. */
  delaysMs: readonly number[];
  /** Each wait is spread by up to this fraction either way, so failed bursts do not retry in step. */
  jitter?: number;
  random?: () => number;
}

/**
 * What follows attempt number `attempt` (1 for the first) of one delivery generation.
 * 2xx: done. 410 Gone: the receiver wants no more, so the delivery fails and its endpoint
 * is disabled. Anything else is retried after `delaysMs[attempt - 1]` (jittered); a longer
 * `Retry-After` is honoured up to the longest wait of the schedule; after the last retry
 * the delivery fails.
 */
export function decideAfterAttempt(
  attempt: number,
  result: { status: number | null; retryAfterMs: number | null },
  options: RetryPolicyOptions,
): AttemptFollowUp {
  const { status, retryAfterMs } = result;
  if (status !== null && status >= 200 && status < 300) return { kind: 'succeeded' };
  if (status === 410) return { kind: 'failed', disableEndpoint: true };
  const scheduled = options.delaysMs[attempt - 1];
  if (scheduled === undefined) return { kind: 'failed', disableEndpoint: false };
  const jitter = options.jitter ?? 0.1;
  const random = options.random ?? Math.random;
  let delayMs = Math.round(scheduled * (1 + jitter * (2 * random() - 1)));
  if (retryAfterMs !== null && retryAfterMs > delayMs) {
    delayMs = Math.max(delayMs, Math.min(retryAfterMs, Math.max(...options.delaysMs)));
  }
  return { kind: 'retry', delayMs };
}
