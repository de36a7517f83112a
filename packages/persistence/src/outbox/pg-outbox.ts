import { randomUUID } from 'node:crypto';
import {
  currentTraceContext,
  type ConnectionEvent,
  type DeliverableEvent,
  type DomainEvent,
  type Outbox,
  type StoredConnectionEvent,
  type StoredEvent,
} from '@pis/domain';
import { bumpEventSequence } from '../access/location-event-marks';
import { connectionEventRow, outboxEventMapper } from '../mappers/outbox-event.mapper';
import { outboxEventSchema } from '../schemas/outbox-event.schema';
import type { Sql } from '../db/sql';

/** The channel a relay LISTENs on; the payload is the location id. */
export const OUTBOX_CHANNEL = 'outbox_events';

/**
 * Transactional outbox. Bumping `locations.event_sequence` row-locks the location until
 * commit, so a location's sequences are handed out one transaction at a time, strictly
 * increasing in commit order, and a rollback gives its numbers back. The NOTIFY is delivered
 * on commit only, so a relay never wakes for events that do not exist.
 */
export class PgOutbox implements Outbox {
  /** `appended` collects what this transaction appended, for the after-commit listeners. */
  constructor(
    private readonly sql: Sql,
    private readonly appended: DeliverableEvent[],
  ) {}

  async append(locationId: string, events: DomainEvent[]): Promise<StoredEvent[]> {
    if (events.length === 0) return [];
    const last = await bumpEventSequence(this.sql, locationId, events.length);
    if (last === null) throw new Error(`cannot append events: there is no location ${locationId}`);
    const first = last - events.length + 1;
    // The write's trace goes with its events, in the same insert (null with tracing off).
    const traceContext = currentTraceContext();
    const rows = events.map((event, i) =>
      outboxEventMapper.toPersistence(locationId, randomUUID(), first + i, event, traceContext),
    );
    const { columns, values, params } = this.sql.insertValues(outboxEventSchema, rows, 1);
    await this.sql.rows(
      `WITH inserted AS (INSERT INTO outbox_events (${columns}) VALUES ${values})
       SELECT pg_notify('${OUTBOX_CHANNEL}', $1)`,
      [locationId, ...params],
    );
    const stored = rows.map((row) => outboxEventMapper.toDomain({ ...row, sequence: row.sequence! }));
    this.appended.push(...stored);
    return stored;
  }

  /**
   * A connection event: a row without a sequence (the location's counter is not touched, so
   * its feed never sees it), relayed like any other to the provider's provider-scope endpoints.
   */
  async appendConnectionEvent(
    providerId: string,
    locationId: string,
    event: ConnectionEvent,
  ): Promise<StoredConnectionEvent> {
    const traceContext = currentTraceContext();
    const row = connectionEventRow(providerId, locationId, randomUUID(), event, traceContext);
    const { columns, values, params } = this.sql.insertValues(outboxEventSchema, [row], 1);
    await this.sql.rows(
      `WITH inserted AS (INSERT INTO outbox_events (${columns}) VALUES ${values})
       SELECT pg_notify('${OUTBOX_CHANNEL}', $1)`,
      [locationId, ...params],
    );
    const stored: StoredConnectionEvent = {
      id: row.id,
      locationId,
      providerId,
      sequence: null,
      type: event.type,
      occurredAt: event.occurredAt,
      data: { ...event.data },
      ...(traceContext === null ? {} : { traceContext }),
    };
    this.appended.push(stored);
    return stored;
  }
}
