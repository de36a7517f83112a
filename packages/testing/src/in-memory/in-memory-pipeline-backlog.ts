import type { Clock } from '@pis/domain';
import type { PipelineBacklog } from '@pis/ports';
import type { State } from '@pis/domain/in-memory';

/** The in-memory twin of the backlog measure: the committed state, the store's clock. */
export function inMemoryPipelineBacklog(committed: () => State, clock: Clock): PipelineBacklog {
  return {
    async measure() {
      const state = committed();
      const unrelayed = [...state.events.values()].flat().filter((e) => !state.relayed.has(e.id));
      const now = clock.now().epochMicros;
      const oldest = unrelayed.reduce<bigint | null>((min, e) => {
        const at = state.appendedAt.get(e.id)!.epochMicros;
        return min === null || at < min ? at : min;
      }, null);
      const lagMicros = oldest === null || oldest > now ? 0n : now - oldest;
      return {
        outboxLagSeconds: Number(lagMicros) / 1e6,
        unrelayedEvents: unrelayed.length,
        pendingDeliveries: [...state.deliveries.values()].filter((d) => d.status === 'pending').length,
      };
    },
  };
}
