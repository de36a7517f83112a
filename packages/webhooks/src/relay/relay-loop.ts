import type { Logger } from 'pino';
import { WakeableLoop } from '../shared/wakeable-loop';
import type { OutboxRelay } from './outbox-relay';

export interface RelayLoopOptions {
  /** Poll fallback between rounds that found nothing (NOTIFY and `wake()` are the fast path). */
  pollMs: number;
  logger: Logger;
  /** Called after a batch created deliveries, so whoever sends them looks at once. */
  onDeliveries: () => void;
}

/** Relays batch after batch while the outbox has unrelayed events, then waits for a wake or the poll. */
export function relayLoop(relay: OutboxRelay, options: RelayLoopOptions): WakeableLoop {
  return new WakeableLoop(
    async () => {
      const batch = await relay.relayBatch();
      if (batch.deliveries > 0) options.onDeliveries();
      return batch.events === relay.size;
    },
    { idleMs: options.pollMs, errorBackoffMs: 1_000, logger: options.logger, name: 'outbox-relay' },
  );
}
