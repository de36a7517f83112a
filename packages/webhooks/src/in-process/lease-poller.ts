import type { Instant } from '@pis/domain';
import type { ClaimedDelivery, ClaimRoom, DeliveryLeases } from '@pis/ports';
import type { Logger } from 'pino';
import { deliveryJobId, type DeliveryScheduler, type ScheduledJob } from '../delivery/scheduler';

export interface LeasePollerOptions {
  /** How long a claim holds a delivery (the attempt's lease). */
  leaseMs: number;
  /** The poll fallback: due deliveries are looked for at least this often. */
  pollMs: number;
  logger: Logger;
}

/** A delivery the poller claimed (leased), and the due time it was handed back with when parked. */
export interface PolledJob extends ScheduledJob {
  readonly claimed: ClaimedDelivery;
  handedBackUntil: Instant | null;
}

/**
 * The scheduler of the deployments without Redis: the deliveries' rows in PostgreSQL are the
 * schedule. Receiving claims due deliveries (a lease pushes each one's due time ahead, `FOR
 * UPDATE SKIP LOCKED`, so several processes share them), no more of an endpoint's than its
 * room in the slots; the attempt record sets the next due time (a retry's delay), so a delay
 * for a retry has nothing left to do; a parked delivery gives its lease back early, due again
 * when its turn comes, and calling it back makes it due at once.
 */
export class LeasePoller implements DeliveryScheduler<PolledJob> {
  readonly handOff = null;
  private receiving = false;
  /** Whether the last claim found everything due: then wait for a wake or the poll before the next. */
  private exhausted = false;
  /** Endpoints whose due deliveries the last claim may have left behind: it filled their room, or they had none. */
  private heldBack = new Set<string>();
  /** The room of the last claim's caller, asked again when a slot frees. */
  private room: (() => ClaimRoom) | null = null;
  private interrupt: (() => void) | null = null;

  constructor(
    private readonly leases: DeliveryLeases,
    private readonly options: LeasePollerOptions,
  ) {}

  /** The relay's deliveries are due rows already: look now. */
  async enqueue(): Promise<void> {
    this.wake();
  }

  start(): void {
    this.receiving = true;
  }

  /**
   * Claims up to `max` due deliveries within each endpoint's room. A claim that gave some
   * endpoint all of its room, or took `max`, may have left more due: the next call claims
   * again at once. One that took less found everything due: the next waits for a wake or the
   * poll.
   */
  async receive(max: number, room: () => ClaimRoom): Promise<PolledJob[]> {
    while (this.receiving) {
      if (this.exhausted) await this.pause();
      if (!this.receiving) break;
      this.room = room;
      const rooms = room();
      this.exhausted = true;
      const claimed = await this.leases.claimDue(max, this.options.leaseMs, rooms);
      const perEndpoint = new Map<string, number>();
      for (const d of claimed) perEndpoint.set(d.endpointId, (perEndpoint.get(d.endpointId) ?? 0) + 1);
      const filled = [...perEndpoint].filter(([id, n]) => n >= (rooms.endpoints.get(id) ?? rooms.otherwise));
      this.heldBack = new Set(filled.map(([id]) => id));
      for (const [id, n] of rooms.endpoints) if (n <= 0) this.heldBack.add(id);
      if (claimed.length === max || filled.length > 0) this.exhausted = false;
      if (claimed.length > 0) return claimed.map(toJob);
    }
    return [];
  }

  /** A retry's due time is the attempt record's; only a parked delivery gives its lease back here. */
  async delay(job: PolledJob, at: number, reason: 'not-due' | 'retry' | 'parked'): Promise<void> {
    if (reason !== 'parked') return;
    job.handedBackUntil = await this.leases.handBack(
      job.deliveryId,
      job.generation,
      Math.max(0, at - Date.now()),
    );
  }

  async complete(): Promise<void> {
    // The attempt record settled the delivery or set its next attempt.
  }

  async abandon(job: PolledJob, error: unknown): Promise<void> {
    // Its lease runs out and the delivery is attempted again: at least once.
    this.options.logger.error(
      { err: error, deliveryId: job.deliveryId },
      'webhook attempt could not be completed',
    );
  }

  /** Reads the due time `delay` gave the job back with, so it keeps the job. */
  callBackOf(job: PolledJob): () => Promise<boolean> {
    return () => this.callBack(job);
  }

  async callBack(job: PolledJob): Promise<boolean> {
    if (job.handedBackUntil === null) return false;
    const due = await this.leases.dueNow(job.deliveryId, job.generation, job.handedBackUntil);
    if (due) this.wake();
    return due;
  }

  /**
   * A slot of `freed` freeing changes the next claim only when the last one left some of that
   * endpoint's due deliveries behind and the endpoint now has room (a hanging endpoint's first
   * attempts ending one by one leave it over its struggling cap until the last ones end):
   * otherwise the poller waits for its next reason (a new delivery, a call-back, the poll),
   * rather than read the due deliveries again for nothing, past every delivery a hanging
   * endpoint has waiting.
   */
  wake(freed?: string): void {
    if (freed !== undefined && !(this.heldBack.has(freed) && this.hasRoom(freed))) return;
    this.exhausted = false;
    this.interrupt?.();
  }

  private hasRoom(endpointId: string): boolean {
    if (this.room === null) return true;
    const room = this.room();
    return (room.endpoints.get(endpointId) ?? room.otherwise) > 0;
  }

  async stopReceiving(): Promise<void> {
    this.receiving = false;
    this.interrupt?.();
  }

  async close(): Promise<void> {
    await this.stopReceiving();
  }

  private pause(): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.interrupt = null;
        resolve();
      };
      const timer = setTimeout(done, this.options.pollMs);
      this.interrupt = done;
    });
  }
}

function toJob(delivery: ClaimedDelivery): PolledJob {
  return {
    id: deliveryJobId(delivery.id, delivery.generation),
    deliveryId: delivery.id,
    generation: delivery.generation,
    endpointId: delivery.endpointId,
    claimed: delivery,
    carried: null,
    ownsRelayLease: false,
    handedBackUntil: null,
  };
}
