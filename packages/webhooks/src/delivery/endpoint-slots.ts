import type { ClaimRoom } from '@pis/ports';

/** How an attempt went, as far as its endpoint's share of the slots is concerned. */
export interface AttemptPace {
  /** 2xx within half the timeout: the endpoint is keeping up. */
  healthy: boolean;
}

export interface EndpointSlotsOptions {
  /** The process's slots: attempts in flight at once. */
  concurrency: number;
  /** An attempt running longer than this marks its endpoint as struggling before it ends. */
  slowAfterMs: number;
}

/** This process's slots at a glance (the worker's `/metrics`). */
export interface SlotUsage {
  /** Attempts in flight. */
  inFlight: number;
  /** Endpoints held to the struggling cap (last attempt failed or slow, or one running long). */
  strugglingEndpoints: number;
  /** Jobs parked for a slot of their endpoint, not yet back. */
  parkedJobs: number;
}

/** A job sent away to wait for a slot of its endpoint, and how to call it back early. */
interface Waiter {
  /** When it comes back by itself (this process's clock). */
  dueAt: number;
  /** Calls it back now; answers false when it could not (it is no longer waiting). */
  wake: () => Promise<boolean>;
}

/** An endpoint's standing in this process. */
interface Standing {
  /** Start times of its attempts in flight. */
  started: number[];
  /** null: no attempt of it has ended here yet. */
  healthy: boolean | null;
  /** Jobs waiting for a slot, in the order they were sent away. */
  waiting: Map<string, Waiter>;
  /** Jobs called back and not arrived yet, with when they were called. */
  called: Map<string, number>;
  /** When the line was last swept of jobs that never came back. */
  sweptAt: number;
  /** When it last went idle (healthy, nothing in flight, waiting or called); null while it is not idle. */
  idleSince: number | null;
}

/** A job called back that has not arrived after this long was taken by another process. */
const CALLED_FORGOTTEN_AFTER_MS = 10_000;

/** A waiting job that never came back is forgotten this long after it was due. */
const WAITING_FORGOTTEN_AFTER_MS = 60_000;

/**
 * An endpoint that keeps up and went idle is remembered this long: the next jobs of a steady
 * flow (a relay's hand-off every few milliseconds) find it still known and keeping up, instead
 * of starting again at a quarter of the slots and parking what does not fit.
 */
const IDLE_REMEMBERED_MS = 1_000;

/** How often the endpoints idle for longer than `IDLE_REMEMBERED_MS` are dropped. */
const IDLE_SWEEP_EVERY_MS = 10_000;

/** How often a line is swept of jobs that never came back. */
const SWEEP_EVERY_MS = 10_000;

/**
 * Attempts in flight per endpoint in this process, so that one slow or failing endpoint never
 * holds the slots every location shares, while a healthy endpoint's burst may use them all.
 *
 * - An endpoint that keeps up (its last attempt was a 2xx within half the timeout) has no cap:
 *   its attempts take milliseconds, and a burst to one endpoint uses the whole process.
 * - One that struggles (its last attempt failed or was slow, or one in flight has been running
 *   longer than `slowAfterMs`) holds an eighth of the slots (at least one).
 * - One not attempted here yet holds a quarter (at least one), so that a hanging endpoint's
 *   first backlog never takes the whole process, nor half of it, for one timeout before
 *   anything is known of it: its first attempts cannot be taken back once it turns out to
 *   hang, and the others share what is left until they time out.
 *
 * A job whose endpoint is at its cap waits outside (the caller parks it); when a slot of that
 * endpoint frees, the first waiting job is called back, so a waiting line drains at the pace its
 * endpoint's slots free, each job moved once, whatever its length.
 */
export class EndpointSlots {
  private readonly standings = new Map<string, Standing>();
  private readonly strugglingCap: number;
  private readonly firstCap: number;
  private readonly concurrency: number;
  private readonly slowAfterMs: number;
  private idleSweptAt = 0;

  constructor(options: EndpointSlotsOptions) {
    this.concurrency = Math.max(1, options.concurrency);
    this.slowAfterMs = options.slowAfterMs;
    this.strugglingCap = Math.max(1, Math.floor(this.concurrency / 8));
    this.firstCap = Math.max(1, Math.floor(this.concurrency / 4));
  }

  /**
   * Takes a slot for an attempt to `endpointId` starting `at`; false when the endpoint is at
   * its cap. `at` is the slot's ticket: `release` gives it back. A job that was called back
   * (`arrived` said so) takes the slot kept for it; any other job only a slot that no called
   * job is on its way to, so a fresh job never overtakes the line.
   */
  tryTake(endpointId: string, at: number, called = false): boolean {
    const standing = this.standing(endpointId, at);
    // Forgotten here too, not only as a slot frees: with nothing of the endpoint in flight no
    // slot frees, and a call that never arrives (Redis lost the job) would keep every fresh
    // job parked behind it for good.
    if (!called) this.forgetCalledLongAgo(standing, at);
    const cap = this.capOf(standing, at);
    // An endpoint without a cap of its own may take every slot of the process: a job called
    // back finds one when it arrives (the scheduler hands out no more jobs than the process has
    // free slots), so nothing needs to be kept for it. Keeping slots for the calls in transit
    // parked fresh jobs of a burst again and again (each freed slot called one back while the
    // next fresh job arrived first and was parked).
    const kept = called || cap >= this.concurrency ? 0 : standing.called.size;
    if (standing.started.length + kept >= cap) return false;
    standing.started.push(at);
    standing.idleSince = null;
    return true;
  }

  /**
   * Gives back the slot taken at `takenAt`, noting how the attempt went (no pace: no attempt
   * was made), and calls back as many waiting jobs of the endpoint as it now has free slots.
   */
  release(endpointId: string, takenAt: number, pace?: AttemptPace, now = Date.now()): void {
    const standing = this.standings.get(endpointId);
    if (standing === undefined) return;
    const index = standing.started.indexOf(takenAt);
    standing.started.splice(index === -1 ? 0 : index, 1);
    if (pace !== undefined) standing.healthy = pace.healthy;
    this.callBack(endpointId, standing, now);
    this.forgetIfIdle(endpointId, standing, now);
  }

  /**
   * Parks `jobId` until a slot of `endpointId` frees (`wake` calls it back) and answers when it
   * comes back by itself if it is not called: after one `turnMs` for each cap's worth of jobs
   * waiting ahead of it, jittered, and never later than `maxMs` (jittered down to half), so a job
   * parked by a process that then died is back within `maxMs`.
   */
  park(
    endpointId: string,
    jobId: string,
    wake: () => Promise<boolean>,
    turnMs: number,
    maxMs: number,
    now = Date.now(),
  ): number {
    const standing = this.standing(endpointId, now);
    // A sweep walks the whole line: at most once per sweep interval, not at every park (a line
    // of 20,000 swept at every park cost the worker more than its own attempts).
    if (now - standing.sweptAt >= SWEEP_EVERY_MS) {
      standing.sweptAt = now;
      for (const [id, waiter] of standing.waiting) {
        if (waiter.dueAt < now - WAITING_FORGOTTEN_AFTER_MS) standing.waiting.delete(id);
      }
    }
    const turns = Math.floor(standing.waiting.size / this.capOf(standing, now));
    const delayMs = Math.round(
      Math.min(turnMs * (turns + 0.5 + Math.random() / 2), maxMs * (0.5 + Math.random() / 2)),
    );
    standing.waiting.set(jobId, { dueAt: now + delayMs, wake });
    return delayMs;
  }

  /** `jobId` is back for its slot (called back or by itself); answers whether it was called back. */
  arrived(endpointId: string, jobId: string): boolean {
    const standing = this.standings.get(endpointId);
    if (standing === undefined) return false;
    standing.waiting.delete(jobId);
    return standing.called.delete(jobId);
  }

  /**
   * How many more slots each endpoint may take now (jobs called back and not arrived
   * included): the endpoints this process knows, each with its own; any other may take a quarter.
   * A poller claims no more of an endpoint's deliveries than this.
   */
  room(now = Date.now()): ClaimRoom {
    const endpoints = new Map<string, number>();
    for (const [id, standing] of this.standings) {
      if (this.idleTooLong(standing, now)) continue;
      endpoints.set(id, Math.max(0, this.capOf(standing, now) - standing.started.length));
    }
    return { endpoints, otherwise: this.firstCap };
  }

  /** Attempts in flight, struggling endpoints and parked jobs, walking the endpoints this process knows. */
  usage(now = Date.now()): SlotUsage {
    const usage: SlotUsage = { inFlight: 0, strugglingEndpoints: 0, parkedJobs: 0 };
    for (const standing of this.standings.values()) {
      usage.inFlight += standing.started.length;
      usage.parkedJobs += standing.waiting.size;
      if (this.struggles(standing, now)) usage.strugglingEndpoints += 1;
    }
    return usage;
  }

  /** Whether the endpoint's last attempt failed or was slow, or one in flight is running long. */
  isStruggling(endpointId: string, now = Date.now()): boolean {
    const standing = this.standings.get(endpointId);
    return standing !== undefined && this.struggles(standing, now);
  }

  /** Jobs of the endpoint waiting for a slot (parked, not yet back). */
  waitingFor(endpointId: string): number {
    return this.standings.get(endpointId)?.waiting.size ?? 0;
  }

  private struggles(standing: Standing, now: number): boolean {
    if (standing.healthy === false) return true;
    // Slots are taken in time order: the first is the oldest attempt in flight.
    const oldest = standing.started[0];
    return oldest !== undefined && now - oldest > this.slowAfterMs;
  }

  private capOf(standing: Standing, now: number): number {
    if (this.struggles(standing, now)) return this.strugglingCap;
    return standing.healthy === null ? this.firstCap : this.concurrency;
  }

  /** Calls back the first waiting jobs, one per free slot (jobs called and not yet back count as taking one). */
  private callBack(endpointId: string, standing: Standing, now: number): void {
    this.forgetCalledLongAgo(standing, now);
    let free = this.capOf(standing, now) - standing.started.length - standing.called.size;
    for (const [jobId, waiter] of standing.waiting) {
      if (free <= 0) break;
      free -= 1;
      standing.waiting.delete(jobId);
      standing.called.set(jobId, now);
      void waiter.wake().then(
        (woken) => this.notWoken(endpointId, jobId, woken),
        () => this.notWoken(endpointId, jobId, false),
      );
    }
  }

  /** Jobs called back that have not arrived within `CALLED_FORGOTTEN_AFTER_MS` were taken elsewhere, or lost: they hold no slot any more. */
  private forgetCalledLongAgo(standing: Standing, now: number): void {
    for (const [id, calledAt] of standing.called) {
      if (calledAt < now - CALLED_FORGOTTEN_AFTER_MS) standing.called.delete(id);
    }
  }

  /** A job that could not be called back (it had come back already, or is gone) frees its turn for the next. */
  private notWoken(endpointId: string, jobId: string, woken: boolean): void {
    if (woken) return;
    const standing = this.standings.get(endpointId);
    if (standing === undefined || !standing.called.delete(jobId)) return;
    const now = Date.now();
    this.callBack(endpointId, standing, now);
    this.forgetIfIdle(endpointId, standing, now);
  }

  private standing(endpointId: string, now: number): Standing {
    let standing = this.standings.get(endpointId);
    if (standing !== undefined && this.idleTooLong(standing, now)) standing = undefined;
    if (standing === undefined) {
      standing = {
        started: [],
        healthy: null,
        waiting: new Map(),
        called: new Map(),
        sweptAt: 0,
        idleSince: null,
      };
      this.standings.set(endpointId, standing);
    }
    return standing;
  }

  /** Went idle more than `IDLE_REMEMBERED_MS` ago and has nothing in flight, waiting or called since. */
  private idleTooLong(standing: Standing, now: number): boolean {
    return (
      standing.idleSince !== null &&
      now - standing.idleSince > IDLE_REMEMBERED_MS &&
      standing.started.length === 0 &&
      standing.waiting.size === 0 &&
      standing.called.size === 0
    );
  }

  /**
   * An endpoint with nothing in flight, nothing waiting and a healthy last attempt has little to
   * remember: it is kept for `IDLE_REMEMBERED_MS` (a steady flow's next jobs find it keeping up),
   * then forgotten, and the endpoints idle longer than that are dropped once per
   * `IDLE_SWEEP_EVERY_MS`, which keeps the map to the endpoints that matter. One that struggled
   * is kept, so that its next attempt is capped.
   */
  private forgetIfIdle(endpointId: string, standing: Standing, now: number): void {
    if (
      standing.healthy === true &&
      standing.started.length === 0 &&
      standing.waiting.size === 0 &&
      standing.called.size === 0
    ) {
      standing.idleSince = now;
    }
    if (now - this.idleSweptAt < IDLE_SWEEP_EVERY_MS) return;
    this.idleSweptAt = now;
    for (const [id, idle] of this.standings) {
      if (id !== endpointId && this.idleTooLong(idle, now)) this.standings.delete(id);
    }
  }
}
