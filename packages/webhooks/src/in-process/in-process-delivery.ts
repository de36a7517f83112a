import type { Logger } from 'pino';
import { deliveryStack, type DeliveryDeps, type DeliveryStack } from '../delivery/delivery-stack';
import type { ClaimedDelivery } from '../delivery/delivery-records';
import { OutboxListener } from '../relay/outbox-listener';
import { OutboxRelay } from '../relay/outbox-relay';
import { relayLoop } from '../relay/relay-loop';
import { settlesWithin } from '../shared/settles-within';
import { WakeableLoop } from '../shared/wakeable-loop';

export interface InProcessDeliveryOptions extends DeliveryDeps {
  /** Attempts in flight at once. */
  concurrency?: number;
  /** Poll fallback of the relay and of the due-delivery poller. */
  pollMs?: number;
  /** How long `stop()` waits for attempts in flight. */
  closeTimeoutMs?: number;
  /** Set with PostgreSQL: LISTEN for commits made by other processes too. */
  databaseUrl?: string | null;
  newId?: () => string;
}

/**
 * Webhook delivery without Redis (decisions section 9), inside the API process: the outbox
 * relay, and a poller that claims due pending deliveries (a lease in PostgreSQL, `SKIP
 * LOCKED`, so several API processes share the work) and attempts them with the same
 * signer, sender, retry policy and records as the worker. Call `wake()` after a commit that
 * appended events.
 */
export class InProcessDelivery {
  private readonly stack: DeliveryStack;
  private readonly relay: WakeableLoop;
  private readonly poller: WakeableLoop;
  private readonly listener: OutboxListener | null;
  private readonly inFlight = new Set<Promise<void>>();
  private readonly concurrency: number;
  private readonly closeTimeoutMs: number;
  private readonly logger: Logger;

  constructor(options: InProcessDeliveryOptions) {
    this.stack = deliveryStack(options);
    this.logger = options.logger;
    this.concurrency = options.concurrency ?? 16;
    this.closeTimeoutMs = options.closeTimeoutMs ?? 15_000;
    const pollMs = options.pollMs ?? 250;
    this.poller = new WakeableLoop(() => this.claimAndSend(), {
      idleMs: pollMs,
      errorBackoffMs: 1_000,
      logger: options.logger,
      name: 'webhook-poller',
    });
    this.relay = relayLoop(new OutboxRelay(options.db, 500, options.newId), {
      pollMs,
      logger: options.logger,
      onDeliveries: () => this.poller.wake(),
    });
    this.listener = options.databaseUrl
      ? new OutboxListener(options.databaseUrl, () => this.relay.wake(), options.logger)
      : null;
  }

  async start(): Promise<void> {
    await this.listener?.start();
    this.relay.start();
    this.poller.start();
  }

  /** Events were committed: relay them now rather than at the next poll. */
  wake(): void {
    this.relay.wake();
  }

  /** Stops claiming, then waits for attempts in flight up to the close timeout (their leases cover the rest). */
  async stop(): Promise<void> {
    await this.listener?.stop();
    await Promise.all([this.relay.stop(), this.poller.stop()]);
    await settlesWithin(Promise.allSettled([...this.inFlight]), this.closeTimeoutMs);
    this.stack.sender.close();
  }

  private async claimAndSend(): Promise<boolean> {
    const free = this.concurrency - this.inFlight.size;
    if (free <= 0) return false;
    const claimed = await this.stack.records.claimDue(free);
    for (const delivery of claimed) this.send(delivery);
    return claimed.length === free;
  }

  private send(delivery: ClaimedDelivery): void {
    const attempt = this.stack.attempts
      .run(delivery)
      .then(() => undefined)
      .catch((err) =>
        // The lease runs out and the delivery is attempted again: at least once.
        this.logger.error({ err, deliveryId: delivery.id }, 'webhook attempt could not be completed'),
      )
      .finally(() => {
        this.inFlight.delete(attempt);
        // A slot is free (and a zero-delay retry may be due).
        this.poller.wake();
      });
    this.inFlight.add(attempt);
  }
}
