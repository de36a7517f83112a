import type { DomainEvent, StoredEvent } from './domain-event';

/**
 * Transactional outbox: events appended inside a unit of work commit with the state
 * change that caused them, or not at all.
 */
export interface Outbox {
  /** Assigns each event an id and the location's next sequence numbers, in order. */
  append(locationId: string, events: DomainEvent[]): Promise<StoredEvent[]>;
}
