import type { ConnectionEvent, DomainEvent, EventType, StoredEvent } from '@pis/domain';
import { instantFromDb, instantToDb } from '../db-instant';
import type { OutboxEventRow } from '../schemas/outbox-event.schema';

/** A new outbox row: `created_at` is the database's, and the relay has not seen it yet. */
export type NewOutboxEventRow = Omit<OutboxEventRow, 'created_at'>;

export const outboxEventMapper = {
  toDomain(
    row: Omit<
      OutboxEventRow,
      'created_at' | 'relayed_at' | 'reservation_provider_id' | 'trace_context' | 'provider_id' | 'sequence'
    > & {
      sequence: number;
      reservation_provider_id?: string | null;
      trace_context?: Record<string, string> | null;
    },
  ): StoredEvent {
    const owner = row.reservation_provider_id;
    return {
      id: row.id,
      locationId: row.location_id,
      sequence: row.sequence,
      type: row.type as EventType,
      occurredAt: instantFromDb(row.occurred_at),
      data: row.data,
      ...(owner === null || owner === undefined ? {} : { reservationProviderId: owner }),
      ...(row.trace_context ? { traceContext: row.trace_context } : {}),
    } as StoredEvent;
  },
  toPersistence(
    locationId: string,
    id: string,
    sequence: number,
    event: DomainEvent,
    traceContext: Readonly<Record<string, string>> | null = null,
  ): NewOutboxEventRow {
    return {
      id,
      location_id: locationId,
      sequence,
      type: event.type,
      occurred_at: instantToDb(event.occurredAt),
      provider_id: null,
      data: { ...event.data },
      reservation_provider_id: event.reservationProviderId ?? null,
      trace_context: traceContext === null ? null : { ...traceContext },
      relayed_at: null,
    };
  },
};

/** A connection event's row: no sequence, the provider it is for. */
export function connectionEventRow(
  providerId: string,
  locationId: string,
  id: string,
  event: ConnectionEvent,
  traceContext: Readonly<Record<string, string>> | null = null,
): NewOutboxEventRow {
  return {
    id,
    location_id: locationId,
    sequence: null,
    provider_id: providerId,
    type: event.type,
    occurred_at: instantToDb(event.occurredAt),
    data: { ...event.data },
    reservation_provider_id: null,
    trace_context: traceContext === null ? null : { ...traceContext },
    relayed_at: null,
  };
}
