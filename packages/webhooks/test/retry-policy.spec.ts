import fc from 'fast-check';
import { decideAfterAttempt, parseRetryAfter } from '../src';

const SCHEDULE = [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000];
const noJitter = { delaysMs: SCHEDULE, jitter: 0 };
const failure = (status: number | null, retryAfterMs: number | null = null) => ({ status, retryAfterMs });

describe('decideAfterAttempt', () => {
  it.each([
    [200, { kind: 'succeeded' }],
    [204, { kind: 'succeeded' }],
    [299, { kind: 'succeeded' }],
    [410, { kind: 'failed', disableEndpoint: true }],
  ])('When the receiver answers %s on the first attempt, then the decision is %j', (status, decision) => {
    expect(decideAfterAttempt(1, failure(status), noJitter)).toEqual(decision);
  });

  it.each([
    [1, 500, 5_000],
    [2, 503, 300_000],
    [3, 404, 1_800_000],
    [4, null, 7_200_000],
    [5, 301, 18_000_000],
    [6, 429, 36_000_000],
    [7, 400, 36_000_000],
  ])(
    'When attempt %s fails with %s, then the retry waits the schedule entry %s ms',
    (attempt, status, delayMs) => {
      expect(decideAfterAttempt(attempt, failure(status), noJitter)).toEqual({ kind: 'retry', delayMs });
    },
  );

  it('When the attempt after the last scheduled retry fails, then the delivery fails and the endpoint stays enabled', () => {
    expect(decideAfterAttempt(SCHEDULE.length + 1, failure(500), noJitter)).toEqual({
      kind: 'failed',
      disableEndpoint: false,
    });
  });

  it('When the schedule is empty, then the first failure is final', () => {
    expect(decideAfterAttempt(1, failure(500), { delaysMs: [] })).toEqual({
      kind: 'failed',
      disableEndpoint: false,
    });
  });

  it.each([
    ['asks for longer than the schedule entry', 60_000, 1, 60_000],
    ['asks for less than the schedule entry', 300_000, 2, 60_000],
    ['asks for more than the longest wait of the schedule', 36_000_000, 1, 100 * 3_600_000],
    ['asks for 0', 5_000, 1, 0],
  ])('When Retry-After %s, then the retry waits %s ms', (_case, expected, attempt, retryAfterMs) => {
    expect(decideAfterAttempt(attempt, failure(503, retryAfterMs), noJitter)).toEqual({
      kind: 'retry',
      delayMs: expected,
    });
  });

  it('When jitter applies, then every wait stays within 10 % of its schedule entry', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: SCHEDULE.length }),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        (attempt, r) => {
          const decision = decideAfterAttempt(attempt, failure(500), { delaysMs: SCHEDULE, random: () => r });
          const entry = SCHEDULE[attempt - 1]!;
          return (
            decision.kind === 'retry' &&
            decision.delayMs >= entry * 0.9 - 1 &&
            decision.delayMs <= entry * 1.1 + 1
          );
        },
      ),
    );
  });

  it('When jitter applies to many retries, then the waits spread out rather than coincide', () => {
    const waits = new Set(
      Array.from({ length: 50 }, () => {
        const d = decideAfterAttempt(2, failure(500), { delaysMs: SCHEDULE });
        return d.kind === 'retry' ? d.delayMs : -1;
      }),
    );

    expect(waits.size).toBeGreaterThan(10);
  });
});

describe('parseRetryAfter', () => {
  const now = Date.parse('2026-11-21T19:00:00Z');

  it.each<[string | undefined, number | null]>([
    ['120', 120_000],
    ['0', 0],
    [' 5 ', 5_000],
    ['Sat, 21 Nov 2026 19:01:30 GMT', 90_000],
    ['Saturday, 21-Nov-26 19:00:10 GMT', 10_000],
    ['Sat, 21 Nov 2026 18:00:00 GMT', 0],
    ['-5', null],
    ['1.5', null],
    ['soon', null],
    ['2026-11-21T19:05:00Z', null],
    ['', null],
    [undefined, null],
  ])('When Retry-After is %p, then the wait is %p ms', (header, expected) => {
    expect(parseRetryAfter(header, now)).toBe(expected);
  });
});
