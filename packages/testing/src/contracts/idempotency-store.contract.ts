import { randomUUID } from 'node:crypto';
import {
  IDEMPOTENCY_KEEP_MICROS,
  IDEMPOTENCY_LEASE_MICROS,
  Instant,
  type IdempotencyClaim,
  type IdempotencyStore,
  type IdempotentRequest,
  type IdempotentStart,
} from '@pis/domain';
import { useAdapters } from './adapter-set';

export interface IdempotencyAdapters {
  store: IdempotencyStore;
  close?: () => Promise<void>;
}

const at = (iso: string) => Instant.parse(iso)!;
const T0 = at('2026-11-21T18:00:00.000123Z');
const later = (micros: bigint, from = T0) => from.plusMicros(micros);
const SECOND = 1_000_000n;

/** A request under a key of its own (one store serves every case). */
const aRequest = (fingerprint = 'POST /api/provider/v1/reservations #body'): IdempotentRequest => ({
  scope: `key:${randomUUID()}/location:${randomUUID()}`,
  key: `key-${randomUUID()}`,
  fingerprint,
});

function claimOf(start: IdempotentStart): IdempotencyClaim {
  if (start.kind !== 'claimed') throw new Error(`expected the key to be claimed, got ${start.kind}`);
  return start.claim;
}

/**
 * `IdempotencyStore`: the rule of `decideIdempotentStart` applied atomically, answers kept as
 * given, holds that lapse and are renewed, and pruning by the service clock. Times are
 * passed in, so every adapter runs on the same instants.
 */
export function describeIdempotencyStoreContract(
  name: string,
  make: () => Promise<IdempotencyAdapters>,
): void {
  describe(`${name}: idempotency store contract`, () => {
    const adapters = useAdapters(make);
    const store = (): IdempotencyStore => adapters().store;

    it('When a key is first used, then it is claimed, the same request meanwhile is in progress, and once answered it is replayed as kept', async () => {
      const request = aRequest();
      const claim = claimOf(await store().begin(request, 't1', T0));
      const meanwhile = await store().begin(request, 't2', later(SECOND));
      const answer = { status: 201, body: '{"outcome":"applied","name":"Zoë 🍷","n":[1,2]}' };

      expect(claim).toEqual({ scope: request.scope, key: request.key, token: 't1' });
      expect(meanwhile).toEqual({ kind: 'in_progress' });
      expect(await store().complete(claim, answer)).toBe(true);
      expect(await store().begin(request, 't3', later(2n * SECOND))).toStrictEqual({
        kind: 'replay',
        answer,
      });
      expect(await store().begin(request, 't4', later(IDEMPOTENCY_KEEP_MICROS - 1n))).toStrictEqual({
        kind: 'replay',
        answer,
      });
    });

    it('When an answer without a body is kept, then it is replayed without one', async () => {
      const request = aRequest();
      const claim = claimOf(await store().begin(request, 't1', T0));

      await store().complete(claim, { status: 204, body: null });

      expect(await store().begin(request, 't2', later(SECOND))).toStrictEqual({
        kind: 'replay',
        answer: { status: 204, body: null },
      });
    });

    it('When the key comes with another request, running or answered, then it is reused and the first answer stays', async () => {
      const request = aRequest();
      const other = { ...request, fingerprint: 'POST /api/provider/v1/reservations #other' };
      const claim = claimOf(await store().begin(request, 't1', T0));

      const whileRunning = await store().begin(other, 't2', later(SECOND));
      await store().complete(claim, { status: 200, body: '{}' });
      const afterwards = await store().begin(other, 't3', later(2n * SECOND));

      expect(whileRunning).toEqual({ kind: 'reused' });
      expect(afterwards).toEqual({ kind: 'reused' });
      expect(await store().begin(request, 't4', later(3n * SECOND))).toEqual({
        kind: 'replay',
        answer: { status: 200, body: '{}' },
      });
    });

    it('When the same key is used under another credential or location, then each is a key of its own', async () => {
      const request = aRequest();
      const elsewhere = { ...request, scope: `${request.scope}-other` };

      const first = await store().begin(request, 't1', T0);
      const second = await store().begin(elsewhere, 't2', T0);

      expect(first.kind).toBe('claimed');
      expect(second.kind).toBe('claimed');
    });

    it('When 24 hours have passed since the first request, then the key is claimed anew by any request and the old claim can no longer answer', async () => {
      const request = aRequest();
      const old = claimOf(await store().begin(request, 't1', T0));
      const expired = later(IDEMPOTENCY_KEEP_MICROS);

      const fresh = claimOf(await store().begin({ ...request, fingerprint: 'another' }, 't2', expired));

      expect(await store().complete(old, { status: 201, body: '{"late":true}' })).toBe(false);
      expect(await store().complete(fresh, { status: 202, body: '{"fresh":true}' })).toBe(true);
      expect(
        await store().begin({ ...request, fingerprint: 'another' }, 't3', later(SECOND, expired)),
      ).toEqual({
        kind: 'replay',
        answer: { status: 202, body: '{"fresh":true}' },
      });
    });

    it('When the running request’s hold lapses, then a retry takes the key over and the first can neither renew nor answer', async () => {
      const request = aRequest();
      const first = claimOf(await store().begin(request, 't1', T0));
      const lapsed = later(IDEMPOTENCY_LEASE_MICROS);

      const retry = claimOf(await store().begin(request, 't2', lapsed));

      expect(retry.token).toBe('t2');
      expect(await store().renew(first, later(SECOND, lapsed))).toBe(false);
      expect(await store().complete(first, { status: 201, body: '{"first":true}' })).toBe(false);
      expect(await store().begin(request, 't3', later(SECOND, lapsed))).toEqual({ kind: 'in_progress' });
      expect(await store().complete(retry, { status: 201, body: '{"retry":true}' })).toBe(true);
      expect(await store().begin(request, 't4', later(2n * SECOND, lapsed))).toEqual({
        kind: 'replay',
        answer: { status: 201, body: '{"retry":true}' },
      });
    });

    it('When the running request renews its hold, then the key stays in progress past the first lease and until the renewed one ends', async () => {
      const request = aRequest();
      const claim = claimOf(await store().begin(request, 't1', T0));
      const renewedAt = later(20n * SECOND);

      expect(await store().renew(claim, renewedAt)).toBe(true);

      expect(await store().begin(request, 't2', later(IDEMPOTENCY_LEASE_MICROS))).toEqual({
        kind: 'in_progress',
      });
      expect((await store().begin(request, 't3', later(IDEMPOTENCY_LEASE_MICROS, renewedAt))).kind).toBe(
        'claimed',
      );
    });

    it('When a running claim is released, then the key is free at once; an answered key is not released', async () => {
      const request = aRequest();
      const claim = claimOf(await store().begin(request, 't1', T0));

      await store().release(claim);
      const again = claimOf(await store().begin(request, 't2', later(SECOND)));
      await store().complete(again, { status: 201, body: '{}' });
      await store().release(again);

      expect(await store().renew(claim, later(SECOND))).toBe(false);
      expect(await store().begin(request, 't3', later(2n * SECOND))).toEqual({
        kind: 'replay',
        answer: { status: 201, body: '{}' },
      });
    });

    it('When an answered claim answers again, then the first answer stays', async () => {
      const request = aRequest();
      const claim = claimOf(await store().begin(request, 't1', T0));

      expect(await store().complete(claim, { status: 201, body: '{"n":1}' })).toBe(true);
      expect(await store().complete(claim, { status: 201, body: '{"n":2}' })).toBe(false);
      expect(await store().renew(claim, later(SECOND))).toBe(false);

      expect(await store().begin(request, 't2', later(SECOND))).toEqual({
        kind: 'replay',
        answer: { status: 201, body: '{"n":1}' },
      });
    });

    it('When ten requests start one new key at once, then exactly one claims it and the others find it in progress', async () => {
      const request = aRequest();

      const starts = await Promise.all(
        Array.from({ length: 10 }, (_, i) => store().begin(request, `t${i}`, later(BigInt(i)))),
      );

      expect(starts.filter((s) => s.kind === 'claimed')).toHaveLength(1);
      expect(starts.filter((s) => s.kind === 'in_progress')).toHaveLength(9);
    });

    it('When ten retries meet a lapsed hold at once, then exactly one takes the key over', async () => {
      const request = aRequest();
      await store().begin(request, 'dead', T0);
      const lapsed = later(IDEMPOTENCY_LEASE_MICROS);

      const starts = await Promise.all(
        Array.from({ length: 10 }, (_, i) => store().begin(request, `t${i}`, lapsed)),
      );

      expect(starts.filter((s) => s.kind === 'claimed')).toHaveLength(1);
      expect(starts.filter((s) => s.kind === 'in_progress')).toHaveLength(9);
    });

    it('When keys are pruned, then those whose 24 hours ended go, oldest first and at most a batch at a time; the others stay', async () => {
      // Long before every other case's instants, so only this case's keys are old enough.
      const base = at('2001-01-01T00:00:00Z');
      const requests = Array.from({ length: 5 }, () => aRequest());
      for (const [i, request] of requests.entries()) {
        const claim = claimOf(await store().begin(request, `t${i}`, later(BigInt(i) * SECOND, base)));
        await store().complete(claim, { status: 201, body: `{"i":${i}}` });
      }
      const allExpired = later(IDEMPOTENCY_KEEP_MICROS + 10n * SECOND, base);
      const twoExpired = later(IDEMPOTENCY_KEEP_MICROS + SECOND, base);

      const stillKept = await store().prune(later(IDEMPOTENCY_KEEP_MICROS - 1n, base), 10);
      const first = await store().prune(allExpired, 2);
      const nothingOlder = await store().prune(twoExpired, 10);
      const rest = [await store().prune(allExpired, 2), await store().prune(allExpired, 2)];
      const none = await store().prune(allExpired, 2);

      expect(stillKept).toBe(0);
      expect(first).toBe(2);
      expect(nothingOlder).toBe(0);
      expect(rest).toEqual([2, 1]);
      expect(none).toBe(0);
    });

    it('When a key is pruned, then the same key starts afresh', async () => {
      const request = aRequest();
      const base = at('2001-06-01T00:00:00Z');
      const claim = claimOf(await store().begin(request, 't1', base));
      await store().complete(claim, { status: 201, body: '{}' });
      const expired = later(IDEMPOTENCY_KEEP_MICROS, base);

      while ((await store().prune(expired, 100)) > 0);

      expect((await store().begin({ ...request, fingerprint: 'new' }, 't2', expired)).kind).toBe('claimed');
      expect(await store().complete(claim, { status: 201, body: '{}' })).toBe(false);
    });
  });
}
