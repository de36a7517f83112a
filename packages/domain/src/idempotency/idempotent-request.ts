import type { Instant } from '../kernel/instant';

/** How long a first request's answer is kept under its key, from the moment that request began. */
export const IDEMPOTENCY_KEEP_MICROS = 24n * 3_600_000_000n;

/**
 * How long a running first request holds its key without renewing it. Its process renews the
 * hold while the request runs, so only a process that died (or lost its database) lets it
 * lapse; a retry after that runs the request again.
 */
export const IDEMPOTENCY_LEASE_MICROS = 30_000_000n;

/** Which key: the credential and location it was sent with (`scope`), and the client's key. */
export interface IdempotencyKeyRef {
  scope: string;
  key: string;
}

/** A request sent with an `Idempotency-Key`. */
export interface IdempotentRequest extends IdempotencyKeyRef {
  /** What was asked: method, path and a canonical hash of the body. */
  fingerprint: string;
}

/** The answer kept for replay: its status and body (null when it had none). */
export interface KeptAnswer {
  status: number;
  body: string | null;
}

/** What a key holds. */
export interface KeptRequest {
  fingerprint: string;
  /** null while the first request runs. */
  answer: KeptAnswer | null;
  /** The end of the key's 24 hours: from then on it is as if it had never been used. */
  expiresAt: Instant;
  /** While the first request runs: until when its process holds the key. */
  lockedUntil: Instant;
}

/** A key held by one running request; `token` tells this hold from any later one of the key. */
export interface IdempotencyClaim extends IdempotencyKeyRef {
  token: string;
}

/**
 * - `claim`: the request runs under the key (a new key, one whose 24 hours are over, or one
 *   whose first request's process let its hold lapse);
 * - `replay`: the same request already has its answer;
 * - `reused`: the key was used for a different request;
 * - `in_progress`: the same request is still running elsewhere.
 */
export type IdempotencyDecision = 'claim' | 'replay' | 'reused' | 'in_progress';

/**
 * What a request with an `Idempotency-Key` meets, given what its key holds. A different
 * request is `reused` whether or not the first has finished: sending one key for two requests
 * is the client's mistake either way, and answering it the same every time tells it so.
 */
export function decideIdempotentStart(
  kept: KeptRequest | null,
  fingerprint: string,
  now: Instant,
): IdempotencyDecision {
  if (kept === null || !kept.expiresAt.isAfter(now)) return 'claim';
  if (kept.fingerprint !== fingerprint) return 'reused';
  if (kept.answer !== null) return 'replay';
  return kept.lockedUntil.isAfter(now) ? 'in_progress' : 'claim';
}

/** What a key holds once `now` claims it for `fingerprint`. */
export function freshClaim(fingerprint: string, now: Instant): KeptRequest {
  return {
    fingerprint,
    answer: null,
    expiresAt: now.plusMicros(IDEMPOTENCY_KEEP_MICROS),
    lockedUntil: now.plusMicros(IDEMPOTENCY_LEASE_MICROS),
  };
}

/** How a request with a key starts. */
export type IdempotentStart =
  | { kind: 'claimed'; claim: IdempotencyClaim }
  | { kind: 'replay'; answer: KeptAnswer }
  | { kind: 'reused' }
  | { kind: 'in_progress' };
