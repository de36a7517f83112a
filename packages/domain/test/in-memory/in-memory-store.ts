import { AsyncLocalStorage } from 'node:async_hooks';
import {
  Instant,
  type ApiKeyRecord,
  type Clock,
  type IdGenerator,
  type Order,
  type Outcome,
  type Queries,
  type Reservation,
  type StoredConnectionEvent,
  type StoredEvent,
  type Transaction,
  type UnitOfWork,
  type WebhookDelivery,
} from '../../src';
import { detach } from './detach';
import {
  InMemoryAccessQueries,
  InMemoryApiKeyRepository,
  InMemoryConnectionRepository,
  InMemoryLocationRepository,
  InMemoryProviderRepository,
} from './in-memory-access';
import { InMemoryFloorPlanQueries, InMemoryFloorPlanRepository } from './in-memory-floor-plans';
import { InMemoryOrderQueries, InMemoryOrderRepository } from './in-memory-orders';
import { InMemoryOutbox } from './in-memory-outbox';
import { InMemoryReservationQueries, InMemoryReservationRepository } from './in-memory-reservations';
import {
  InMemoryWebhookDeliveryRepository,
  InMemoryWebhookEndpointRepository,
  InMemoryWebhookQueries,
} from './in-memory-webhooks';
import { InMemoryEventFeedQueries, InMemoryEventRecovery } from './in-memory-event-feed';
import { InMemoryTableStateQueries } from './in-memory-table-state';
import { Mutex } from './mutex';
import { Draft, emptyState, readerOf, scoped, type Reader, type State } from './state';

/**
 * Everything the in-memory adapters hold, plus what a test may want to look at. Units of
 * work run one at a time (serialisable by construction); each works on a copy-on-write
 * draft that replaces the committed state only when the work resolves to a success. The
 * webhook pipeline's adapters (`@pis/testing`'s `InMemoryStore`) extend it through
 * `atomically`, `onEventsCommitted` and `committedState`.
 */
export class InMemoryDomainStore {
  private committed: State = emptyState();
  private readonly mutex = new Mutex();
  private readonly inUnitOfWork = new AsyncLocalStorage<true>();
  private readonly commitListeners = new Set<() => void>();

  /** `clock` schedules deliveries (default: the system clock, as a database's would). */
  constructor(
    protected readonly ids: IdGenerator,
    protected readonly clock: Clock = { now: () => Instant.fromEpochMillis(Date.now()) },
  ) {}

  readonly uow: UnitOfWork = {
    run: <T>(work: (tx: Transaction) => Promise<Outcome<T>>) => this.run(work),
  };

  /** The read side: always the committed state, never a running unit of work's writes. */
  readonly queries: Queries = {
    reservations: new InMemoryReservationQueries(() => this.reader()),
    floorPlans: new InMemoryFloorPlanQueries(() => this.reader()),
    orders: new InMemoryOrderQueries(() => this.reader()),
    access: new InMemoryAccessQueries(() => this.reader()),
    webhooks: new InMemoryWebhookQueries(() => this.reader()),
    events: new InMemoryEventFeedQueries(() => this.reader()),
    tableState: new InMemoryTableStateQueries(() => this.reader()),
  };

  /** The committed connection events (outside every location's outbox), in the order appended. */
  connectionEvents(): StoredConnectionEvent[] {
    return detach([...this.committed.connectionEvents.values()]);
  }

  /** The location's committed outbox events, by sequence. */
  events(locationId: string): StoredEvent[] {
    return detach([...(this.committed.events.get(locationId) ?? [])]);
  }

  /** The location's committed reservations, in no particular order. */
  reservations(locationId: string): Reservation[] {
    return [...this.committed.reservations.values()].filter((r) => r.locationId === locationId).map(detach);
  }

  /** The location's committed orders, in no particular order. */
  orders(locationId: string): Order[] {
    return [...this.committed.orders.values()].filter((o) => o.locationId === locationId).map(detach);
  }

  /** The location's committed API key records (hashes and prefixes, never keys). */
  apiKeys(locationId: string): ApiKeyRecord[] {
    return [...this.committed.apiKeys.values()].filter((k) => k.locationId === locationId).map(detach);
  }

  /** The location's committed webhook deliveries, in no particular order. */
  deliveries(locationId: string): WebhookDelivery[] {
    return [...this.committed.deliveries.values()].filter((d) => d.locationId === locationId).map(detach);
  }

  /** The id of the open order standing on the table, or null. */
  holderOf(locationId: string, tableId: string): string | null {
    return this.committed.tableHolders.get(scoped(locationId, tableId)) ?? null;
  }

  /** Stores a delivery as the webhook relay would (waits for any running unit of work). */
  async addDelivery(delivery: WebhookDelivery): Promise<void> {
    await this.exclusive(async () => {
      const deliveries = new Map(this.committed.deliveries).set(delivery.id, detach(delivery));
      const run = { generation: 0, queuedGeneration: 0, attemptCount: delivery.attempts.length };
      const deliveryRuns = new Map(this.committed.deliveryRuns).set(delivery.id, run);
      this.committed = { ...this.committed, deliveries, deliveryRuns };
    });
  }

  /** Runs `step` alone on the committed state; the state it answers becomes the committed one. */
  protected atomically<T>(step: (state: State) => { state: State; value: T }): Promise<T> {
    return this.exclusive(async () => {
      const { state, value } = step(this.committed);
      this.committed = state;
      return value;
    });
  }

  /** Calls `listener` after each commit that appended events; answers a function that unsubscribes. */
  protected onEventsCommitted(listener: () => void): () => void {
    this.commitListeners.add(listener);
    return () => this.commitListeners.delete(listener);
  }

  /** The committed state as it is now. */
  protected committedState(): State {
    return this.committed;
  }

  private reader(): Reader {
    return readerOf(this.committed);
  }

  private run<T>(work: (tx: Transaction) => Promise<Outcome<T>>): Promise<Outcome<T>> {
    return this.exclusive(async () => {
      const draft = new Draft(this.committed);
      let outcome: Outcome<T>;
      try {
        outcome = await work(this.transaction(draft));
      } catch (error) {
        draft.end();
        throw error;
      }
      const next = draft.end();
      if (!outcome.ok) return outcome;
      const appended =
        next.events !== this.committed.events || next.connectionEvents !== this.committed.connectionEvents;
      this.committed = next;
      if (appended) for (const listener of this.commitListeners) listener();
      return outcome;
    });
  }

  /** Runs `work` alone; starting it from inside a unit of work would wait for itself forever. */
  private async exclusive<T>(work: () => Promise<T>): Promise<T> {
    if (this.inUnitOfWork.getStore()) {
      throw new Error('a unit of work (or a seeding call) was started inside another unit of work');
    }
    return this.mutex.lock(() => this.inUnitOfWork.run(true, work));
  }

  private transaction(draft: Draft): Transaction {
    return {
      reservations: new InMemoryReservationRepository(draft),
      floorPlans: new InMemoryFloorPlanRepository(draft),
      orders: new InMemoryOrderRepository(draft),
      outbox: new InMemoryOutbox(draft, this.ids, this.clock),
      locations: new InMemoryLocationRepository(draft),
      apiKeys: new InMemoryApiKeyRepository(draft),
      providers: new InMemoryProviderRepository(draft),
      connections: new InMemoryConnectionRepository(draft),
      webhookEndpoints: new InMemoryWebhookEndpointRepository(draft),
      webhookDeliveries: new InMemoryWebhookDeliveryRepository(draft, this.clock),
      eventRecovery: new InMemoryEventRecovery(draft, this.clock, this.ids),
    };
  }
}
