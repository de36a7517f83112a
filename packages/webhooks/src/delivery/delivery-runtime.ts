import type { DeliveryPipelineStore } from '@pis/ports';
import type { Logger } from 'pino';
import { relayLoop } from '../relay/relay-loop';
import type { WakeableLoop } from '../support/wakeable-loop';
import { DeliveryEngine } from './delivery-engine';
import type { DeliveryStack } from './delivery-stack';
import type { SlotUsage } from './endpoint-slots';
import type { DeliveryScheduler, ScheduledJob } from './scheduler';

export interface DeliveryRuntimeOptions<J extends ScheduledJob> {
  store: DeliveryPipelineStore;
  stack: DeliveryStack;
  scheduler: DeliveryScheduler<J>;
  /** Attempts in flight at once in this process. */
  concurrency: number;
  /** Poll fallback of the relay. */
  pollMs: number;
  /** How long `stop()` waits for attempts in flight. */
  closeTimeoutMs?: number;
  logger: Logger;
}

/**
 * What every delivery deployment runs: the outbox relay (woken by commit signals), which
 * hands the deliveries it creates to the scheduler, and the engine that receives them from
 * the scheduler and attempts them. Started and stopped in one order everywhere.
 */
export class DeliveryRuntime<J extends ScheduledJob> {
  readonly engine: DeliveryEngine<J>;
  private readonly relay: WakeableLoop;
  private unsubscribe: (() => Promise<void>) | null = null;

  constructor(private readonly options: DeliveryRuntimeOptions<J>) {
    const { store, stack, scheduler, logger } = options;
    this.engine = new DeliveryEngine(scheduler, stack, store.leases, {
      concurrency: options.concurrency,
      closeTimeoutMs: options.closeTimeoutMs,
      logger,
    });
    this.relay = relayLoop(store.relay, scheduler, { pollMs: options.pollMs, logger });
  }

  async start(): Promise<void> {
    this.unsubscribe = await this.options.store.signals.subscribe(() => this.relay.wake());
    this.relay.start();
    this.engine.start();
  }

  /** Events were committed: relay them now rather than at the next poll. */
  wake(): void {
    this.relay.wake();
  }

  slotUsage(): SlotUsage {
    return this.engine.slotUsage();
  }

  /** Stops relaying, then the engine (which waits for its attempts in flight, up to its close timeout). */
  async stop(): Promise<void> {
    await this.unsubscribe?.();
    this.unsubscribe = null;
    await this.relay.stop();
    await this.engine.stop();
  }
}
