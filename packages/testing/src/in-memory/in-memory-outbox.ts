import type { DomainEvent, IdGenerator, Outbox, StoredEvent } from '@pis/domain';
import { detach } from './detach';
import type { Draft } from './state';

/** Events join the location's outbox in the same draft as the state change that caused them. */
export class InMemoryOutbox implements Outbox {
  constructor(
    private readonly draft: Draft,
    private readonly ids: IdGenerator,
  ) {}

  async append(locationId: string, events: DomainEvent[]): Promise<StoredEvent[]> {
    if (events.length === 0) return [];
    const outbox = this.draft.get('events', locationId) ?? [];
    const last = outbox[outbox.length - 1]?.sequence ?? 0;
    const stored = events.map((event, i): StoredEvent => ({
      ...detach(event),
      id: this.ids.uuid(),
      locationId,
      sequence: last + i + 1,
    }));
    this.draft.put('events', locationId, [...outbox, ...stored]);
    return detach(stored);
  }
}
