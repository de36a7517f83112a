import type {
  ApiKeyRecord,
  ConnectedSpan,
  Connection,
  Instant,
  Location,
  Order,
  Provider,
  ProviderKeyRecord,
  PublishedFloorPlan,
  Reservation,
  Room,
  StoredConnectionEvent,
  StoredEvent,
  WebhookDelivery,
  WebhookEndpoint,
} from '../../src';

/** A location's floor plan: the working rooms and the latest published snapshot. */
export interface PlanState {
  rooms: Room[];
  published: PublishedFloorPlan | null;
}

/** What each map of the store holds, by key. */
export interface Rows {
  locations: Location;
  apiKeys: ApiKeyRecord;
  /** By id; `ownLocationId` is set on a location's own provider (whose id is the location's). */
  providers: { provider: Provider; ownLocationId: string | null };
  providerKeys: ProviderKeyRecord;
  /** By `scoped(locationId, providerId)`: the connection and the spans of events it covered. */
  connections: { connection: Connection; spans: ConnectedSpan[] };
  /** By `reservationKey(locationId, providerId, externalId)`. */
  reservations: Reservation;
  orders: Order;
  /** The open order standing on a table, by `scoped(locationId, tableId)`: one holder per table. */
  tableHolders: string;
  /** By location id. */
  plans: PlanState;
  /** A location's outbox, by sequence; by location id. */
  events: StoredEvent[];
  /** Connection events (no sequence, in no location's outbox), in the order appended; by event id. */
  connectionEvents: StoredConnectionEvent;
  /** When each event joined the outbox (the store's clock); by event id. */
  appendedAt: Instant;
  /** One endpoint per location; by location id. */
  endpoints: WebhookEndpoint;
  deliveries: WebhookDelivery;
  /** What the pipeline keeps of a delivery beside what the read side shows; by delivery id. */
  deliveryRuns: DeliveryRun;
  /** Events the relay has fanned out; by event id. */
  relayed: true;
  /** The last event retention pruned; by location id (absent: none was). */
  prunedThrough: { sequence: number; occurredAt: Instant };
}

/** A delivery's generation (bumped by redelivery), the generation a queue job exists for, and its attempts in this generation. */
export interface DeliveryRun {
  generation: number;
  queuedGeneration: number | null;
  attemptCount: number;
  /** Made by a recover request rather than by the relay. */
  recovered?: true;
}

/** The whole store: immutable maps, so a snapshot is a shallow copy of this object. */
export type State = { readonly [K in keyof Rows]: ReadonlyMap<string, Rows[K]> };

export const emptyState = (): State => ({
  locations: new Map(),
  apiKeys: new Map(),
  providers: new Map(),
  providerKeys: new Map(),
  connections: new Map(),
  reservations: new Map(),
  orders: new Map(),
  tableHolders: new Map(),
  plans: new Map(),
  events: new Map(),
  connectionEvents: new Map(),
  appendedAt: new Map(),
  endpoints: new Map(),
  deliveries: new Map(),
  deliveryRuns: new Map(),
  relayed: new Map(),
  prunedThrough: new Map(),
});

/** A key scoped to a location: two locations never share a row. */
export const scoped = (locationId: string, key: string): string => `${locationId}\u0000${key}`;

/** The key of a provider's reservation: a location's providers never share one. */
export const reservationKey = (locationId: string, providerId: string, externalId: string): string =>
  scoped(locationId, scoped(providerId, externalId));

/** The start of every key of the provider's reservations at the location. */
export const reservationsOf = (locationId: string, providerId: string): string =>
  scoped(locationId, scoped(providerId, ''));

/**
 * The working copy of one unit of work. Writes copy a map the first time it changes
 * (copy-on-write), so the committed state stays untouched until `result()` replaces it.
 * A draft refuses to be used once its unit of work has ended.
 */
export class Draft {
  private readonly copied = new Set<keyof Rows>();
  private ended = false;

  constructor(private state: State) {}

  get<K extends keyof Rows>(table: K, key: string): Rows[K] | undefined {
    return this.map(table).get(key);
  }

  map<K extends keyof Rows>(table: K): ReadonlyMap<string, Rows[K]> {
    this.check();
    return this.state[table] as ReadonlyMap<string, Rows[K]>;
  }

  put<K extends keyof Rows>(table: K, key: string, row: Rows[K]): void {
    this.writable(table).set(key, row);
  }

  remove<K extends keyof Rows>(table: K, key: string): boolean {
    return this.map(table).has(key) && this.writable(table).delete(key);
  }

  /** The state as this unit of work leaves it; the draft cannot be used afterwards. */
  end(): State {
    this.check();
    this.ended = true;
    return this.state;
  }

  private writable<K extends keyof Rows>(table: K): Map<string, Rows[K]> {
    this.check();
    if (!this.copied.has(table)) {
      this.state = { ...this.state, [table]: new Map(this.state[table] as ReadonlyMap<string, Rows[K]>) };
      this.copied.add(table);
    }
    return this.state[table] as Map<string, Rows[K]>;
  }

  private check(): void {
    if (this.ended) throw new Error('a transaction was used after its unit of work ended');
  }
}

/** Read access to a state: a draft inside a unit of work, the committed state outside. */
export interface Reader {
  map<K extends keyof Rows>(table: K): ReadonlyMap<string, Rows[K]>;
}

export const readerOf = (state: State): Reader => ({
  map: <K extends keyof Rows>(table: K) => state[table] as ReadonlyMap<string, Rows[K]>,
});

/** The location's last sequence: its newest event's, or the last one retention pruned (0: none yet). */
export const lastSequence = (read: Reader, locationId: string): number => {
  const events = read.map('events').get(locationId);
  return events?.[events.length - 1]?.sequence ?? read.map('prunedThrough').get(locationId)?.sequence ?? 0;
};

/** Total order on ids as PostgreSQL orders lower-case UUIDs (byte-wise). */
export const compareIds = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
