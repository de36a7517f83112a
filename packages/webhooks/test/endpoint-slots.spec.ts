import { EndpointSlots } from '../src/delivery/endpoint-slots';

const SLOW_MS = 5_000;
const T0 = 1_000_000;

function slotsOf(concurrency: number): EndpointSlots {
  return new EndpointSlots({ concurrency, slowAfterMs: SLOW_MS });
}

/** Takes up to `n` slots of `endpointId` at `at`; answers how many it got. */
function take(slots: EndpointSlots, endpointId: string, n: number, at = T0): number {
  return Array.from({ length: n }, () => slots.tryTake(endpointId, at)).filter(Boolean).length;
}

/** One attempt of `endpointId` that went as `healthy` says. */
function attempted(slots: EndpointSlots, endpointId: string, healthy: boolean, at = T0): void {
  expect(slots.tryTake(endpointId, at)).toBe(true);
  slots.release(endpointId, at, { healthy }, at + 1);
}

/** A parked job whose wake records the call and answers `woken`. */
function parked(
  slots: EndpointSlots,
  endpointId: string,
  jobId: string,
  woken: string[],
  answer = true,
): number {
  return slots.park(
    endpointId,
    jobId,
    async () => {
      woken.push(jobId);
      return answer;
    },
    10_000,
    60_000,
    T0,
  );
}

const settled = () => new Promise((resolve) => setImmediate(resolve));

describe('EndpointSlots', () => {
  it('When an endpoint has not been attempted here yet, then it may hold a quarter of the slots', () => {
    const slots = slotsOf(32);

    expect(take(slots, 'a', 20)).toBe(8);
    expect(slots.tryTake('b', T0)).toBe(true);
    expect(slots.room(T0)).toEqual({
      endpoints: new Map([
        ['a', 0],
        ['b', 7],
      ]),
      otherwise: 8,
    });
  });

  it('When the process has few slots, then an endpoint not attempted here yet holds a quarter of them, at least one', () => {
    expect([8, 4, 2, 1].map((n) => take(slotsOf(n), 'new', n))).toEqual([2, 1, 1, 1]);
  });

  it('When an endpoint keeps up, then a burst to it may use every slot', () => {
    const slots = slotsOf(32);
    expect(take(slots, 'a', 8)).toBe(8);
    slots.release('a', T0, { healthy: true }, T0 + 1);

    expect(take(slots, 'a', 40, T0 + 1)).toBe(25);
    expect(slots.room(T0 + 1).endpoints).toEqual(new Map([['a', 0]]));
  });

  it('When an endpoint that keeps up goes idle for more than a second, then it is forgotten: its next burst starts at a quarter until an attempt of it succeeds', () => {
    const slots = slotsOf(32);
    attempted(slots, 'a', true);

    expect(slots.room(T0 + 1_002).endpoints.has('a')).toBe(false);
    expect(take(slots, 'a', 40, T0 + 1_002)).toBe(8);
  });

  it('When an endpoint that keeps up was idle for less than a second, then its next jobs may use every slot (a steady flow is not cut to a quarter between hand-offs)', () => {
    const slots = slotsOf(32);
    attempted(slots, 'a', true);

    expect(slots.room(T0 + 1_001).endpoints.get('a')).toBe(32);
    expect(take(slots, 'a', 40, T0 + 1_001)).toBe(32);
  });

  it('When an endpoint that kept up starts failing after a pause of less than a second, then its next attempts are capped as soon as one fails', () => {
    const slots = slotsOf(32);
    attempted(slots, 'a', true);
    attempted(slots, 'a', false, T0 + 500);

    expect(take(slots, 'a', 10, T0 + 501)).toBe(4);
  });

  it('When an attempt of an endpoint fails or is slow, then it may hold only an eighth until one succeeds quickly again', () => {
    const slots = slotsOf(32);
    attempted(slots, 'a', false);

    const struggling = take(slots, 'a', 10);
    slots.release('a', T0, { healthy: true }, T0 + 1);

    expect(struggling).toBe(4);
    expect(slots.isStruggling('a', T0 + 1)).toBe(false);
    expect(take(slots, 'a', 40, T0 + 1)).toBe(29);
  });

  it('When an attempt in flight runs longer than the slow mark, then its endpoint is capped before the attempt ends', () => {
    const slots = slotsOf(32);
    attempted(slots, 'a', true);
    expect(slots.tryTake('a', T0)).toBe(true);

    expect(slots.isStruggling('a', T0 + SLOW_MS)).toBe(false);
    expect(slots.isStruggling('a', T0 + SLOW_MS + 1)).toBe(true);
    expect(take(slots, 'a', 10, T0 + SLOW_MS + 1)).toBe(3);
    expect(slots.room(T0 + SLOW_MS + 1).endpoints).toEqual(new Map([['a', 0]]));
  });

  it('When a slot is given back, then the ticket it was taken with is the one that ends (the oldest still in flight stays)', () => {
    const slots = slotsOf(32);
    attempted(slots, 'a', true);
    slots.tryTake('a', T0); // hangs
    slots.tryTake('a', T0 + 100); // quick
    slots.release('a', T0 + 100, { healthy: true }, T0 + 110);

    expect(slots.isStruggling('a', T0 + SLOW_MS + 1)).toBe(true);
  });

  it('When a slot is given back without an attempt, then the endpoint keeps its standing', () => {
    const slots = slotsOf(8);
    attempted(slots, 'a', false);
    slots.tryTake('a', T0);
    slots.release('a', T0);

    expect(slots.isStruggling('a', T0)).toBe(true);
    expect([slots.tryTake('a', T0), slots.tryTake('a', T0)]).toEqual([true, false]);
  });

  it('When the process has one slot, then a struggling endpoint still gets one at a time', () => {
    const slots = slotsOf(1);
    attempted(slots, 'a', false);

    expect([slots.tryTake('a', T0), slots.tryTake('a', T0)]).toEqual([true, false]);
  });

  it('When jobs are parked for a capped endpoint, then each comes back by itself one turn after those ahead of it, never later than the bound', () => {
    const slots = slotsOf(8);
    attempted(slots, 'hanging', false); // an eighth of 8: one slot

    const delays = ['j1', 'j2', 'j3'].map((id) =>
      slots.park('hanging', id, async () => true, 10_000, 60_000, T0),
    );
    const far = Array.from({ length: 100 }, (_, i) =>
      slots.park('hanging', `k${i}`, async () => true, 10_000, 60_000, T0),
    );

    delays.forEach((delay, turns) => {
      expect(delay).toBeGreaterThanOrEqual(10_000 * (turns + 0.5));
      expect(delay).toBeLessThanOrEqual(10_000 * (turns + 1));
    });
    expect(Math.max(...far)).toBeLessThanOrEqual(60_000);
    expect(Math.min(...far.slice(10))).toBeGreaterThanOrEqual(30_000);
    expect(slots.waitingFor('hanging')).toBe(103);
  });

  it('When a slot of a capped endpoint frees, then the first parked job is called back, one per free slot, and one not back yet still counts', async () => {
    const slots = slotsOf(8);
    attempted(slots, 'hanging', false);
    slots.tryTake('hanging', T0);
    const woken: string[] = [];
    ['j1', 'j2', 'j3'].forEach((id) => parked(slots, 'hanging', id, woken));

    slots.release('hanging', T0, { healthy: false }, T0 + 10);
    slots.release('other', T0, { healthy: true }, T0 + 10);
    await settled();
    expect(woken).toEqual(['j1']);
    expect(slots.waitingFor('hanging')).toBe(2);

    // j1 has not arrived: its slot is kept, and an attempt that ends meanwhile (of a job called
    // back earlier, say) calls no other job for it.
    expect(slots.tryTake('hanging', T0 + 20, true)).toBe(true);
    slots.release('hanging', T0 + 20, { healthy: false }, T0 + 30);
    await settled();
    expect(woken).toEqual(['j1']);

    expect(slots.tryTake('hanging', T0 + 40, slots.arrived('hanging', 'j1'))).toBe(true);
    slots.release('hanging', T0 + 40, { healthy: true }, T0 + 50);
    await settled();
    expect(woken).toEqual(['j1', 'j2', 'j3']);
  });

  it('When a parked job is called back, then its slot is kept for it: a fresh job does not overtake the line', async () => {
    const slots = slotsOf(8);
    attempted(slots, 'hanging', false);
    slots.tryTake('hanging', T0);
    const woken: string[] = [];
    parked(slots, 'hanging', 'j1', woken);
    slots.release('hanging', T0, { healthy: false }, T0 + 10);
    await settled();

    const fresh = slots.tryTake('hanging', T0 + 20);
    const called = slots.arrived('hanging', 'j1');

    expect(woken).toEqual(['j1']);
    expect(fresh).toBe(false);
    expect(called).toBe(true);
    expect(slots.tryTake('hanging', T0 + 20, called)).toBe(true);
    expect(slots.arrived('hanging', 'never-parked')).toBe(false);
  });

  it("When a parked job of an endpoint that keeps up is called back, then a fresh job of it is not parked for the call: every slot is the endpoint's, and the called job takes the next that frees", async () => {
    const slots = slotsOf(8);
    expect(take(slots, 'a', 2)).toBe(2);
    slots.release('a', T0, { healthy: true }, T0 + 1);
    expect(take(slots, 'a', 6)).toBe(6);
    const woken: string[] = [];
    parked(slots, 'a', 'j1', woken);
    slots.release('a', T0, { healthy: true }, T0 + 10);
    await settled();

    // Six in flight and one call on its way: the two fresh jobs that arrive first take the free slots.
    expect(woken).toEqual(['j1']);
    expect(take(slots, 'a', 2, T0 + 20)).toBe(2);
    slots.release('a', T0, { healthy: true }, T0 + 30);
    expect(slots.tryTake('a', T0 + 40, slots.arrived('a', 'j1'))).toBe(true);
    expect(slots.usage(T0 + 40)).toEqual({ inFlight: 8, strugglingEndpoints: 0, parkedJobs: 0 });
  });

  it('When a parked job cannot be called back (it came back already, or is gone), then the next one is called in its place', async () => {
    const slots = slotsOf(8);
    attempted(slots, 'hanging', false);
    slots.tryTake('hanging', T0);
    const woken: string[] = [];
    parked(slots, 'hanging', 'gone', woken, false);
    parked(slots, 'hanging', 'next', woken);

    slots.release('hanging', T0, { healthy: false }, T0 + 10);
    await settled();
    await settled();

    expect(woken).toEqual(['gone', 'next']);
    expect(slots.waitingFor('hanging')).toBe(0);
  });

  it('When a job called back never arrives (another process took it), then it stops holding a slot after ten seconds', async () => {
    const slots = slotsOf(8);
    attempted(slots, 'hanging', false);
    slots.tryTake('hanging', T0);
    const woken: string[] = [];
    ['j1', 'j2'].forEach((id) => parked(slots, 'hanging', id, woken));
    slots.release('hanging', T0, { healthy: false }, T0 + 10);
    await settled();

    slots.tryTake('hanging', T0 + 20);
    slots.release('hanging', T0 + 20, { healthy: false }, T0 + 10_011);
    await settled();

    expect(woken).toEqual(['j1', 'j2']);
  });

  it('When a job called back never arrives and nothing of its endpoint is in flight, then a fresh job takes its slot ten seconds after the call, and the line is called back again as that attempt ends', async () => {
    // Redis lost the job after it was called back: no attempt of the endpoint is left to end
    // here, so no release forgets the call. Every fresh job used to be parked for it, for good.
    const slots = slotsOf(8);
    attempted(slots, 'hanging', false);
    slots.tryTake('hanging', T0);
    const woken: string[] = [];
    ['lost', 'next'].forEach((id) => parked(slots, 'hanging', id, woken));
    slots.release('hanging', T0, { healthy: false }, T0 + 10);
    await settled();
    expect(woken).toEqual(['lost']);

    expect(slots.tryTake('hanging', T0 + 5_000)).toBe(false);
    expect(slots.tryTake('hanging', T0 + 10_011)).toBe(true);
    slots.release('hanging', T0 + 10_011, { healthy: false }, T0 + 10_020);
    await settled();

    expect(woken).toEqual(['lost', 'next']);
  });

  it('When a parked job never came back (another process took it), then it is forgotten a minute after it was due', () => {
    const slots = slotsOf(8);
    attempted(slots, 'hanging', false);
    slots.park('hanging', 'lost', async () => true, 1_000, 60_000, 0);

    expect(
      slots.park('hanging', 'next', async () => true, 1_000, 60_000, 1_000 + 60_001),
    ).toBeLessThanOrEqual(1_000);
    expect(slots.waitingFor('hanging')).toBe(1);
  });

  it('When its usage is read, then it counts attempts in flight, struggling endpoints (failed, or running long) and parked jobs', () => {
    const slots = slotsOf(8);
    attempted(slots, 'failing', false);
    attempted(slots, 'healthy', true);
    take(slots, 'failing', 1);
    parked(slots, 'failing', 'j1', []);
    parked(slots, 'failing', 'j2', []);
    take(slots, 'new', 2);
    take(slots, 'long', 1);

    expect(slots.usage(T0)).toEqual({ inFlight: 4, strugglingEndpoints: 1, parkedJobs: 2 });
    // The attempt of 'long' (and those of 'new') now run past the slow mark.
    expect(slots.usage(T0 + SLOW_MS + 1)).toEqual({ inFlight: 4, strugglingEndpoints: 3, parkedJobs: 2 });
  });
});
