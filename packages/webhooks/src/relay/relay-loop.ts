import { startTraceSpan, tracingEnabled, type StartedSpan } from '@pis/domain';
import { type OutboxRelayStore, type RelayedDelivery, type RelayHandOff } from '@pis/ports';
import type { Logger } from 'pino';
import { WakeableLoop } from '../support/wakeable-loop';

export interface RelayLoopOptions {
  /** Events fanned out per batch. */
  batchSize?: number;
  /** Poll fallback between rounds that found nothing (commit signals and `wake()` are the fast path). */
  pollMs: number;
  logger: Logger;
}

/** Where the relay's new deliveries go: the delivery scheduler. */
export interface RelayTarget {
  /** Set when `enqueue` hands the deliveries to a queue: they are marked queued and leased for their first attempt as they are inserted. */
  readonly handOff: RelayHandOff | null;
  enqueue(deliveries: readonly RelayedDelivery[]): Promise<void>;
}

/**
 * The outbox relay: fans committed events out to deliveries batch after batch while the
 * outbox has unrelayed events, handing each batch's deliveries to the scheduler, then waits
 * for a wake or the poll. Several relays (processes) share the work; the store keeps a
 * repeated fan-out harmless. A hand-off that fails does not stop relaying: the scheduler
 * recovers the deliveries from the store (see `EnqueueCandidates`).
 */
export function relayLoop(
  relay: OutboxRelayStore,
  target: RelayTarget,
  options: RelayLoopOptions,
): WakeableLoop {
  const batchSize = options.batchSize ?? 500;
  let handOffFailing = false;
  return new WakeableLoop(
    async () => {
      const batch = await relay.relayBatch(batchSize, target.handOff ?? undefined);
      if (batch.created.length > 0) {
        const spans: StartedSpan[] = [];
        const created = tracingEnabled() ? relaySpans(batch.created, spans) : batch.created;
        try {
          await target.enqueue(created);
          if (handOffFailing) options.logger.info('new deliveries are handed to the scheduler again');
          handOffFailing = false;
        } catch (err) {
          if (!handOffFailing)
            options.logger.warn(
              { err },
              'new deliveries could not be handed to the scheduler; it will take them from the store',
            );
          handOffFailing = true;
        } finally {
          for (const span of spans) span.end();
        }
      }
      return batch.events === batchSize;
    },
    { idleMs: options.pollMs, errorBackoffMs: 1_000, logger: options.logger, name: 'outbox-relay' },
  );
}

/**
 * With tracing on, each delivery's hand-off is a span in the trace of the write that raised
 * its event (docs/decisions/0230-trace-propagation.md), and the delivery carries that span's
 * context on, so its job's attempt is the relay span's child.
 */
function relaySpans(deliveries: readonly RelayedDelivery[], spans: StartedSpan[]): RelayedDelivery[] {
  return deliveries.map((delivery) => {
    if (delivery.event.traceContext === undefined) return delivery;
    const span = startTraceSpan(
      'outbox relay',
      delivery.event.traceContext,
      {
        'pis.delivery.id': delivery.deliveryId,
        'pis.event.id': delivery.event.id,
        'pis.event.type': delivery.event.type,
      },
      'producer',
    );
    if (span === null) return delivery;
    spans.push(span);
    const context = span.context();
    return context === null ? delivery : { ...delivery, event: { ...delivery.event, traceContext: context } };
  });
}
