import { EntitySchema } from 'typeorm';
import { bigint, instant, jsonb, primaryUuid, text, uuid, type InstantText } from './columns';

export interface OutboxEventRow {
  id: string;
  location_id: string;
  /**
   * The event's locationEventSequence: per location, strictly increasing in commit order. Null
   * for a connection event, which is in no location's sequence.
   */
  sequence: number | null;
  /** A connection event's provider (the one granted or revoked); null for a location event. */
  provider_id: string | null;
  type: string;
  occurred_at: InstantText;
  /** The event's `data` without the sequence (the relay adds it to the webhook body). */
  data: Record<string, unknown>;
  /**
   * The provider that owns the reservation the event names (null: it names none); beside the
   * body, so each reader is shown only what it may see of it (`eventVisibleTo`).
   */
  reservation_provider_id: string | null;
  /**
   * The trace context of the write that appended the event (W3C `traceparent`, perhaps
   * `tracestate`); null when tracing was off. Its deliveries' attempts continue that trace.
   */
  trace_context: Record<string, string> | null;
  /** Set by the database (clock_timestamp()). */
  created_at: InstantText;
  /** Set once the relay has fanned the event out to deliveries. */
  relayed_at: InstantText | null;
}

export const outboxEventSchema = new EntitySchema<OutboxEventRow>({
  name: 'outbox_event',
  tableName: 'outbox_events',
  columns: {
    id: primaryUuid(),
    location_id: uuid(),
    sequence: { ...bigint(), nullable: true },
    provider_id: uuid({ nullable: true }),
    type: text(),
    occurred_at: instant(),
    data: jsonb(),
    reservation_provider_id: uuid({ nullable: true }),
    trace_context: jsonb(true),
    created_at: { type: 'timestamptz', insert: false, update: false },
    relayed_at: instant(true),
  },
});
