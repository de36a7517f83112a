import {
  decideIdempotentStart,
  freshClaim,
  IDEMPOTENCY_LEASE_MICROS,
  type IdempotencyClaim,
  type IdempotencyKeyRef,
  type IdempotencyStore,
  type IdempotentRequest,
  type IdempotentStart,
  type Instant,
  type KeptAnswer,
  type KeptRequest,
} from '../../src';
import { detach } from './detach';

interface Held extends KeptRequest {
  token: string;
}

const slot = (ref: IdempotencyKeyRef) => JSON.stringify([ref.scope, ref.key]);

/**
 * Idempotency keys in this process's memory. Each call reads and writes the map without
 * yielding, so it is atomic as the port asks; answers are kept as given (a database keeps
 * them encrypted, decision 0200).
 */
export class InMemoryIdempotencyStore implements IdempotencyStore {
  private readonly keys = new Map<string, Held>();

  async begin(request: IdempotentRequest, token: string, now: Instant): Promise<IdempotentStart> {
    const held = this.keys.get(slot(request)) ?? null;
    const decision = decideIdempotentStart(held, request.fingerprint, now);
    if (decision === 'claim') {
      this.keys.set(slot(request), { ...freshClaim(request.fingerprint, now), token });
      return { kind: 'claimed', claim: { scope: request.scope, key: request.key, token } };
    }
    if (decision === 'replay') return { kind: 'replay', answer: detach(held!.answer!) };
    return { kind: decision };
  }

  async renew(claim: IdempotencyClaim, now: Instant): Promise<boolean> {
    const held = this.running(claim);
    if (held) held.lockedUntil = now.plusMicros(IDEMPOTENCY_LEASE_MICROS);
    return held !== null;
  }

  async complete(claim: IdempotencyClaim, answer: KeptAnswer): Promise<boolean> {
    const held = this.running(claim);
    if (held) held.answer = detach(answer);
    return held !== null;
  }

  async release(claim: IdempotencyClaim): Promise<void> {
    if (this.running(claim)) this.keys.delete(slot(claim));
  }

  async prune(now: Instant, batchSize: number): Promise<number> {
    const doomed = [...this.keys]
      .filter(([, held]) => !held.expiresAt.isAfter(now))
      .sort(([, a], [, b]) => a.expiresAt.compare(b.expiresAt))
      .slice(0, batchSize);
    for (const [at] of doomed) this.keys.delete(at);
    return doomed.length;
  }

  /** How many keys are held, answered or not (expired ones until pruned). */
  get size(): number {
    return this.keys.size;
  }

  private running(claim: IdempotencyClaim): Held | null {
    const held = this.keys.get(slot(claim));
    return held && held.token === claim.token && held.answer === null ? held : null;
  }
}
