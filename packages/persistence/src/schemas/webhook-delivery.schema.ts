import { EntitySchema } from 'typeorm';
import { bigint, instant, int, primaryUuid, text, uuid, type InstantText } from './columns';

export interface WebhookDeliveryRow {
  id: string;
  location_id: string;
  endpoint_id: string;
  event_id: string;
  event_type: string;
  /** null for a connection event's delivery (in no location's sequence). */
  sequence: number | null;
  status: string;
  attempt_count: number;
  next_attempt_at: InstantText | null;
  /** Bumped by a redelivery; the queue job of a generation is enqueued once. */
  generation: number;
  /** The generation whose queue job was enqueued; null before the first. */
  queued_generation: number | null;
  created_at: InstantText;
  updated_at: InstantText;
}

export const webhookDeliverySchema = new EntitySchema<WebhookDeliveryRow>({
  name: 'webhook_delivery',
  tableName: 'webhook_deliveries',
  columns: {
    id: primaryUuid(),
    location_id: uuid(),
    endpoint_id: uuid(),
    event_id: uuid(),
    event_type: text(),
    sequence: { ...bigint(), nullable: true },
    status: text(),
    attempt_count: int(),
    next_attempt_at: instant(true),
    generation: int(),
    queued_generation: int(true),
    created_at: instant(),
    updated_at: instant(),
  },
});
