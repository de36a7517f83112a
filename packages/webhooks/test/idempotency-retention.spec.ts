import { Writable } from 'node:stream';
import { IDEMPOTENCY_KEEP_MICROS } from '@pis/domain';
import { InMemoryIdempotencyStore, ManualClock } from '@pis/testing';
import pino from 'pino';
import { idempotencyRetentionLoop } from '../src/retention/idempotency-retention-loop';

/** A logger whose lines the test can read. */
function recordingLogger() {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      lines.push(JSON.parse(String(chunk)));
      done();
    },
  });
  return { logger: pino({ level: 'info' }, sink), lines };
}

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5));
}

describe('idempotency retention loop', () => {
  it('When keys are past their 24 hours on the service clock, then the loop prunes them batch after batch from its start and says how many once; current keys stay', async () => {
    const clock = new ManualClock();
    const store = new InMemoryIdempotencyStore();
    for (let i = 0; i < 5; i++) {
      await store.begin({ scope: 's', key: `old-${i}`, fingerprint: 'f' }, `t${i}`, clock.now());
    }
    clock.advanceMicros(IDEMPOTENCY_KEEP_MICROS);
    await store.begin({ scope: 's', key: 'current', fingerprint: 'f' }, 'now', clock.now());
    const { logger, lines } = recordingLogger();
    const loop = idempotencyRetentionLoop({ store, clock, logger, batchSize: 2, everyMs: 3_600_000 });

    loop.start();
    await until(() => lines.length > 0);
    await loop.stop();

    expect(store.size).toBe(1);
    expect(await store.begin({ scope: 's', key: 'current', fingerprint: 'f' }, 'x', clock.now())).toEqual({
      kind: 'in_progress',
    });
    expect(lines.map((l) => [l['msg'], l['pruned']])).toEqual([
      ['idempotency keys past their 24 hours pruned', 5],
    ]);
  });
});
