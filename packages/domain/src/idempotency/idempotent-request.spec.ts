import { Instant } from '../kernel/instant';
import {
  decideIdempotentStart,
  freshClaim,
  IDEMPOTENCY_KEEP_MICROS,
  IDEMPOTENCY_LEASE_MICROS,
  type KeptRequest,
} from './idempotent-request';

const start = Instant.parse('2026-11-21T18:00:00Z')!;
const after = (micros: bigint) => start.plusMicros(micros);
const running: KeptRequest = freshClaim('POST /a #1', start);
const answered: KeptRequest = { ...running, answer: { status: 201, body: '{"id":1}' } };

describe('decideIdempotentStart', () => {
  it.each([
    ['the key was never used', 'claim', null, 'POST /a #1', after(1n)],
    ['the same request was answered', 'replay', answered, 'POST /a #1', after(1n)],
    [
      'the same request was answered and its 24 h end in a microsecond',
      'replay',
      answered,
      'POST /a #1',
      after(IDEMPOTENCY_KEEP_MICROS - 1n),
    ],
    [
      'the same request was answered and its 24 h have ended',
      'claim',
      answered,
      'POST /a #1',
      after(IDEMPOTENCY_KEEP_MICROS),
    ],
    ['another request was answered', 'reused', answered, 'POST /a #2', after(1n)],
    [
      'another request was answered and its 24 h have ended',
      'claim',
      answered,
      'POST /a #2',
      after(IDEMPOTENCY_KEEP_MICROS),
    ],
    ['the same request is still running', 'in_progress', running, 'POST /a #1', after(1n)],
    ['another request is still running', 'reused', running, 'POST /a #2', after(1n)],
    [
      'the same request ran in a process whose hold lapsed',
      'claim',
      running,
      'POST /a #1',
      after(IDEMPOTENCY_LEASE_MICROS),
    ],
    [
      'another request ran in a process whose hold lapsed',
      'reused',
      running,
      'POST /a #2',
      after(IDEMPOTENCY_LEASE_MICROS),
    ],
  ] as const)(
    'When %s, then the next request with the key is %s',
    (_case, decision, kept, fingerprint, now) => {
      expect(decideIdempotentStart(kept, fingerprint, now)).toBe(decision);
    },
  );

  it('When a key is claimed, then it runs unanswered, held for the lease and kept 24 hours from the claim', () => {
    expect(freshClaim('f', start)).toEqual({
      fingerprint: 'f',
      answer: null,
      expiresAt: after(IDEMPOTENCY_KEEP_MICROS),
      lockedUntil: after(IDEMPOTENCY_LEASE_MICROS),
    });
    expect(IDEMPOTENCY_KEEP_MICROS).toBe(86_400_000_000n);
  });
});
