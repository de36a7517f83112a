import type { ClaimedDelivery } from '@pis/domain';
import type { Logger } from 'pino';
import { deliveryStack, type DeliveryDeps, type DeliveryStack } from '../delivery/delivery-stack';
import { EndpointSlots, type AttemptPace, type SlotUsage } from '../delivery/endpoint-slots';
import { relayLoop } from '../relay/relay-loop';
import { settlesWithin } from '../support/settles-within';
import { WakeableLoop } from '../support/wakeable-loop';

export interface InProcessDeliveryOptions extends DeliveryDeps {
  /** Attempts in flight at once. */
  concurrency?: number;
  /** Poll fallback of the relay and of the due-delivery poller. */
  pollMs?: number;
  /** How long `stop()` waits for attempts in flight. */
  closeTimeoutMs?: number;
}

/**
 * Webhook delivery without Redis, inside the API process: the outbox relay (woken by commit
 * signals), and a poller that claims due pending deliveries (a lease in the store, so
 * several API processes share the work) and attempts them with the same signer, sender,
 * retry policy and attempt log as the worker.
 */
export class InProcessDelivery {
  private readonly stack: DeliveryStack;
  private readonly relay: WakeableLoop;
  private readonly poller: WakeableLoop;
  private readonly options: InProcessDeliveryOptions;
  private unsubscribe: (() => Promise<void>) | null = null;
  private readonly inFlight = new Set<Promise<void>>();
  private readonly slots: EndpointSlots;
  private readonly concurrency: number;
  private readonly closeTimeoutMs: number;
  private readonly logger: Logger;

  constructor(options: InProcessDeliveryOptions) {
    this.options = options;
    this.stack = deliveryStack(options);
    this.logger = options.logger;
    this.concurrency = options.concurrency ?? 16;
    this.slots = new EndpointSlots({ concurrency: this.concurrency, slowAfterMs: this.stack.slowAfterMs });
    this.closeTimeoutMs = options.closeTimeoutMs ?? 15_000;
    const pollMs = options.pollMs ?? 250;
    this.poller = new WakeableLoop(() => this.claimAndSend(), {
      idleMs: pollMs,
      errorBackoffMs: 1_000,
      logger: options.logger,
      name: 'webhook-poller',
    });
    this.relay = relayLoop(options.store.relay, {
      pollMs,
      logger: options.logger,
      onDeliveries: () => this.poller.wake(),
    });
  }

  async start(): Promise<void> {
    this.unsubscribe = await this.options.store.signals.subscribe(() => this.relay.wake());
    this.relay.start();
    this.poller.start();
  }

  /** Events were committed: relay them now rather than at the next poll. */
  wake(): void {
    this.relay.wake();
  }

  /** The slots at a glance (the API's `/metrics`); jobs are never parked here, claims skip full endpoints. */
  slotUsage(): SlotUsage {
    return this.slots.usage();
  }

  /** Stops claiming, then waits for attempts in flight up to the close timeout (their leases cover the rest). */
  async stop(): Promise<void> {
    await this.unsubscribe?.();
    this.unsubscribe = null;
    await Promise.all([this.relay.stop(), this.poller.stop()]);
    await settlesWithin(Promise.allSettled([...this.inFlight]), this.closeTimeoutMs);
    this.stack.sender.close();
  }

  /**
   * Claims what the free slots allow, and of each endpoint no more than its room in the
   * slots: an endpoint below its cap with a backlog must not take every free slot at once
   * (a hanging one would hold them all for a timeout). A claim that gave an endpoint all of
   * its room may have left others' deliveries behind that endpoint's backlog: claim again
   * at once, when that endpoint has none.
   */
  private async claimAndSend(): Promise<boolean> {
    const free = this.concurrency - this.inFlight.size;
    if (free <= 0) return false;
    const room = this.slots.room();
    const claimed = await this.options.store.leases.claimDue(free, this.stack.leaseMs, room);
    const perEndpoint = new Map<string, number>();
    for (const delivery of claimed) {
      perEndpoint.set(delivery.endpointId, (perEndpoint.get(delivery.endpointId) ?? 0) + 1);
      this.send(delivery);
    }
    const filled = [...perEndpoint].some(([id, n]) => n >= (room.endpoints.get(id) ?? room.otherwise));
    return claimed.length === free || filled;
  }

  private send(delivery: ClaimedDelivery): void {
    const takenAt = Date.now();
    this.slots.hold(delivery.endpointId, takenAt);
    let pace: AttemptPace | undefined;
    const attempt = this.stack.attempts
      .run(delivery)
      .then((attempted) => {
        pace = attempted.pace;
      })
      .catch((err) =>
        // The lease runs out and the delivery is attempted again: at least once.
        this.logger.error({ err, deliveryId: delivery.id }, 'webhook attempt could not be completed'),
      )
      .finally(() => {
        this.slots.release(delivery.endpointId, takenAt, pace);
        this.inFlight.delete(attempt);
        // A slot is free (and a zero-delay retry may be due).
        this.poller.wake();
      });
    this.inFlight.add(attempt);
  }
}
