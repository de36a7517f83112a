import {
  createInMemoryDeps as createDomainInMemoryDeps,
  RandomIds,
  type InMemoryDeps as DomainInMemoryDeps,
  type InMemoryOptions,
} from '@pis/domain/in-memory';
import type { InspectableAdapterSet } from '../contracts/adapter-set';
import { InMemoryStore } from './in-memory-store';

export type { InMemoryOptions } from '@pis/domain/in-memory';

/** The in-memory adapters with the webhook pipeline's. */
export type InMemoryDeps = DomainInMemoryDeps<InMemoryStore>;

/** A complete, isolated set of in-memory adapters, the pipeline's included: a fresh store per call. */
export function createInMemoryDeps(options: InMemoryOptions = {}): InMemoryDeps {
  return createDomainInMemoryDeps(options, (ids, clock) => new InMemoryStore(ids, clock));
}

/** The in-memory adapters as a contract suite takes them. */
export async function inMemoryAdapterSet(): Promise<InspectableAdapterSet> {
  const store = new InMemoryStore(new RandomIds());
  return {
    uow: store.uow,
    queries: store.queries,
    events: async (locationId) => store.events(locationId),
    seedDelivery: (delivery) => store.addDelivery(delivery),
    pipeline: store.pipeline,
    backlog: store.backlog,
    retention: store.retention,
  };
}
