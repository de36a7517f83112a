import type { ConnectionEvent, DomainEvent, StoredConnectionEvent, StoredEvent } from './domain-event';

/**
 * Transactional outbox: events appended inside a unit of work commit with the state
 * change that caused them, or not at all.
 */
export interface Outbox {
  /** Assigns each event an id and the location's next sequence numbers, in order. */
  append(locationId: string, events: DomainEvent[]): Promise<StoredEvent[]>;
  /**
   * Appends an event about the provider's connection to the location, for that provider's
   * provider-scope endpoints: no sequence, never in the location's feed.
   */
  appendConnectionEvent(
    providerId: string,
    locationId: string,
    event: ConnectionEvent,
  ): Promise<StoredConnectionEvent>;
}
