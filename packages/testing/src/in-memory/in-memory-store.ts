import type { Clock, IdGenerator } from '@pis/domain';
import { InMemoryDomainStore } from '@pis/domain/in-memory';
import type { DeliveryPipelineStore, EventRetention, PipelineBacklog } from '@pis/ports';
import { inMemoryDeliveryPipeline } from './in-memory-delivery-pipeline';
import { inMemoryEventRetention } from './in-memory-event-retention';
import { inMemoryPipelineBacklog } from './in-memory-pipeline-backlog';

/** The domain's in-memory store with the webhook pipeline's storage, backlog and retention over it. */
export class InMemoryStore extends InMemoryDomainStore {
  /** The webhook pipeline's storage over this store. */
  readonly pipeline: DeliveryPipelineStore;

  /** How far the pipeline is behind, over the committed state. */
  readonly backlog: PipelineBacklog;

  /** Retention's prune over this store. */
  readonly retention: EventRetention;

  /** `clock` schedules deliveries (default: the system clock, as a database's would). */
  constructor(ids: IdGenerator, clock?: Clock) {
    super(ids, clock);
    this.pipeline = inMemoryDeliveryPipeline({
      atomically: (step) => this.atomically(step),
      onEventsCommitted: (listener) => this.onEventsCommitted(listener),
      clock: this.clock,
      ids,
    });
    this.backlog = inMemoryPipelineBacklog(() => this.committedState(), this.clock);
    this.retention = inMemoryEventRetention({ atomically: (step) => this.atomically(step) });
  }
}
