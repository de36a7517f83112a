import { Writable } from 'node:stream';
import pino from 'pino';
import { WakeableLoop } from '../src/support/wakeable-loop';

function capturingLogger() {
  const lines: { msg: string }[] = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      lines.push(JSON.parse(String(chunk)) as { msg: string });
      done();
    },
  });
  return { logger: pino({ level: 'info' }, sink), lines };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('WakeableLoop', () => {
  it('When a round reports more work, then the next runs at once; when it reports none, the loop waits for the poll', async () => {
    let rounds = 0;
    const { logger } = capturingLogger();
    const loop = new WakeableLoop(async () => ++rounds < 5, {
      idleMs: 10_000,
      errorBackoffMs: 10_000,
      logger,
      name: 't',
    });

    loop.start();
    await sleep(100);
    const afterBurst = rounds;
    await sleep(200);
    await loop.stop();

    expect(afterBurst).toBe(5);
    expect(rounds).toBe(5);
  });

  it('When woken while idle, and woken during a round, then a round follows each wake without waiting for the poll', async () => {
    let rounds = 0;
    let wakeDuringRound = false;
    const { logger } = capturingLogger();
    const loop = new WakeableLoop(
      async () => {
        rounds += 1;
        if (wakeDuringRound) {
          wakeDuringRound = false;
          loop.wake();
        }
        return false;
      },
      { idleMs: 10_000, errorBackoffMs: 10_000, logger, name: 't' },
    );

    loop.start();
    await sleep(50);
    loop.wake();
    await sleep(50);
    const afterIdleWake = rounds;
    wakeDuringRound = true;
    loop.wake();
    await sleep(50);
    await loop.stop();

    expect(afterIdleWake).toBe(2);
    expect(rounds).toBe(4);
  });

  it('When rounds keep failing, then the failure is logged once, retried after the backoff, and recovery is logged', async () => {
    let rounds = 0;
    const { logger, lines } = capturingLogger();
    const loop = new WakeableLoop(
      async () => {
        rounds += 1;
        if (rounds <= 3) throw new Error('database away');
        return false;
      },
      { idleMs: 10_000, errorBackoffMs: 20, logger, name: 't' },
    );

    loop.start();
    await sleep(300);
    await loop.stop();

    expect(rounds).toBe(4);
    expect(lines.map((l) => l.msg)).toEqual(['loop round failed', 'loop recovered']);
  });

  it('When stopped during a pause, then it stops at once', async () => {
    const { logger } = capturingLogger();
    const loop = new WakeableLoop(async () => false, {
      idleMs: 60_000,
      errorBackoffMs: 60_000,
      logger,
      name: 't',
    });
    loop.start();
    await sleep(20);
    const started = Date.now();

    await loop.stop();

    // At once against the 60 s pause; the margin is for a loaded machine.
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});
