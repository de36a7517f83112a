import type {
  Clock,
  ConnectionEvent,
  DomainEvent,
  IdGenerator,
  Outbox,
  StoredConnectionEvent,
  StoredEvent,
} from '../../src';
import { detach } from './detach';
import { lastSequence, type Draft } from './state';

/** Events join the location's outbox in the same draft as the state change that caused them. */
export class InMemoryOutbox implements Outbox {
  constructor(
    private readonly draft: Draft,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  async append(locationId: string, events: DomainEvent[]): Promise<StoredEvent[]> {
    if (events.length === 0) return [];
    const outbox = this.draft.get('events', locationId) ?? [];
    const last = lastSequence(this.draft, locationId);
    const stored = events.map((event, i): StoredEvent => ({
      ...detach(event),
      id: this.ids.uuid(),
      locationId,
      sequence: last + i + 1,
    }));
    this.draft.put('events', locationId, [...outbox, ...stored]);
    const now = this.clock.now();
    for (const event of stored) this.draft.put('appendedAt', event.id, now);
    return detach(stored);
  }

  async appendConnectionEvent(
    providerId: string,
    locationId: string,
    event: ConnectionEvent,
  ): Promise<StoredConnectionEvent> {
    const stored: StoredConnectionEvent = {
      ...detach(event),
      id: this.ids.uuid(),
      locationId,
      providerId,
      sequence: null,
    };
    this.draft.put('connectionEvents', stored.id, stored);
    this.draft.put('appendedAt', stored.id, this.clock.now());
    return detach(stored);
  }
}
