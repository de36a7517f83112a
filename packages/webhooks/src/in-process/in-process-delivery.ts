import { deliveryStack, type DeliveryDeps } from '../delivery/delivery-stack';
import { DeliveryRuntime } from '../delivery/delivery-runtime';
import type { SlotUsage } from '../delivery/endpoint-slots';
import { LeasePoller, type PolledJob } from './lease-poller';

export interface InProcessDeliveryOptions extends DeliveryDeps {
  /** Attempts in flight at once. */
  concurrency?: number;
  /** Poll fallback of the relay and of the due-delivery poller. */
  pollMs?: number;
  /** How long `stop()` waits for attempts in flight. */
  closeTimeoutMs?: number;
}

/**
 * Webhook delivery without Redis, inside the API process: the delivery engine over the
 * lease poller, whose schedule is the deliveries' rows in the store (a lease on each claimed
 * delivery, so several API processes share the work), with the same relay, signer, sender,
 * retry policy, slots and attempt log as the worker.
 */
export class InProcessDelivery {
  private readonly runtime: DeliveryRuntime<PolledJob>;

  constructor(options: InProcessDeliveryOptions) {
    const stack = deliveryStack(options);
    const pollMs = options.pollMs ?? 250;
    const scheduler = new LeasePoller(options.store.leases, {
      leaseMs: stack.leaseMs,
      pollMs,
      logger: options.logger,
    });
    this.runtime = new DeliveryRuntime({
      store: options.store,
      stack,
      scheduler,
      concurrency: options.concurrency ?? 16,
      pollMs,
      closeTimeoutMs: options.closeTimeoutMs,
      logger: options.logger,
    });
  }

  start(): Promise<void> {
    return this.runtime.start();
  }

  /** Events were committed: relay them now rather than at the next poll. */
  wake(): void {
    this.runtime.wake();
  }

  /** The slots at a glance (the API's `/metrics`). */
  slotUsage(): SlotUsage {
    return this.runtime.slotUsage();
  }

  /** Stops relaying and claiming, then waits for attempts in flight up to the close timeout (their leases cover the rest). */
  stop(): Promise<void> {
    return this.runtime.stop();
  }
}
