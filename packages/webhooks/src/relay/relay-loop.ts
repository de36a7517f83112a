import type { OutboxRelayStore } from '@pis/domain';
import type { Logger } from 'pino';
import { WakeableLoop } from '../support/wakeable-loop';

export interface RelayLoopOptions {
  /** Events fanned out per batch. */
  batchSize?: number;
  /** Poll fallback between rounds that found nothing (commit signals and `wake()` are the fast path). */
  pollMs: number;
  logger: Logger;
  /** Called after a batch created deliveries, so whoever sends them looks at once. */
  onDeliveries: () => void;
}

/**
 * The outbox relay: fans committed events out to deliveries batch after batch while the
 * outbox has unrelayed events, then waits for a wake or the poll. Several relays (processes)
 * share the work; the store keeps a repeated fan-out harmless.
 */
export function relayLoop(relay: OutboxRelayStore, options: RelayLoopOptions): WakeableLoop {
  const batchSize = options.batchSize ?? 500;
  return new WakeableLoop(
    async () => {
      const batch = await relay.relayBatch(batchSize);
      if (batch.deliveries > 0) options.onDeliveries();
      return batch.events === batchSize;
    },
    { idleMs: options.pollMs, errorBackoffMs: 1_000, logger: options.logger, name: 'outbox-relay' },
  );
}
