import {
  fail,
  ok,
  type PlainReservationWrites,
  type Queries,
  type StoredEvent,
  type Transaction,
  type UnitOfWork,
  type WebhookDelivery,
} from '@pis/domain';
import { type EventRetention } from '@pis/ports';
import { type DeliveryPipelineStore, type PipelineBacklog } from '@pis/ports';

/** What a contract suite runs against: a unit of work and the read side over the same store. */
export interface AdapterSet {
  uow: UnitOfWork;
  queries: Queries;
  /** The adapter's one-statement write path; checked through the unit of work when absent. */
  plainWrites?: PlainReservationWrites;
  /** Called once after the suite (close pools, drop connections). */
  close?: () => Promise<void>;
}

/**
 * Builds an adapter set. Called once per suite (in `beforeAll`); every test creates its own
 * fresh location(s) with random UUIDs, so one database can serve a whole test file.
 */
export type MakeAdapters = () => Promise<AdapterSet>;

/**
 * What no port exposes but an adapter's owner can: the committed outbox rows, and a way to
 * store a delivery as the webhook relay would. Suites that need it take this instead.
 */
export interface InspectableAdapterSet extends AdapterSet {
  /** The location's committed outbox events, by sequence. */
  events(locationId: string): Promise<StoredEvent[]>;
  /** Stores a delivery (with its attempts) for an event that the outbox already holds. */
  seedDelivery(delivery: WebhookDelivery): Promise<void>;
  /** The webhook pipeline's storage over the same store. */
  pipeline: DeliveryPipelineStore;
  /** How far that pipeline is behind. */
  backlog: PipelineBacklog;
  /** Retention's prune over the same store. */
  retention: EventRetention;
}

export type MakeInspectableAdapters = () => Promise<InspectableAdapterSet>;

/** Registers `beforeAll`/`afterAll` for the suite and hands back the adapters lazily. */
export function useAdapters<A extends Pick<AdapterSet, 'close'>>(make: () => Promise<A>): () => A {
  let adapters: A | null = null;
  beforeAll(async () => {
    adapters = await make();
  });
  afterAll(async () => {
    await adapters?.close?.();
    adapters = null;
  });
  return () => {
    if (adapters === null) throw new Error('the adapters are used outside the suite');
    return adapters;
  };
}

/** Runs `work` in a unit of work that commits, and returns what it returned. */
export async function commit<T>(uow: UnitOfWork, work: (tx: Transaction) => Promise<T>): Promise<T> {
  const outcome = await uow.run(async (tx) => ok(await work(tx)));
  if (!outcome.ok) throw new Error(`the unit of work failed: ${outcome.code} ${outcome.message}`);
  return outcome.value;
}

/** Runs `work` in a unit of work that ends in a failure outcome, so everything rolls back. */
export async function rollBack(uow: UnitOfWork, work: (tx: Transaction) => Promise<unknown>): Promise<void> {
  const outcome = await uow.run(async (tx) => {
    await work(tx);
    return fail('validation_failed', 'the test refuses this unit of work');
  });
  if (outcome.ok) throw new Error('a refused unit of work answered ok');
}
