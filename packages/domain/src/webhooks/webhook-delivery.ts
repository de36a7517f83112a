import type { WebhookEventType } from '../events/domain-event';
import type { Instant } from '../kernel/instant';

export const DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** One HTTP attempt to hand an event to the provider's endpoint. */
export interface DeliveryAttempt {
  attemptedAt: Instant;
  /** The receiver's HTTP status; null when no response came (timeout, refused, blocked). */
  responseStatus: number | null;
  durationMs: number;
  /** Why the attempt failed, in a sentence; null on success. */
  error: string | null;
}

/**
 * An event on its way to one endpoint. `pending` until a 2xx answer (`succeeded`) or the
 * retry schedule runs out or the receiver answers 410 (`failed`); a failed delivery can be
 * redelivered, which makes it pending again.
 */
export interface WebhookDelivery {
  id: string;
  locationId: string;
  endpointId: string;
  eventId: string;
  eventType: WebhookEventType;
  /** The event's sequence at its location; null for a connection event (in no location's sequence). */
  sequence: number | null;
  status: DeliveryStatus;
  attempts: DeliveryAttempt[];
  nextAttemptAt: Instant | null;
  createdAt: Instant;
  updatedAt: Instant;
}

/** Keyset position in the newest-first delivery listing. */
export interface DeliveryCursor {
  createdAt: Instant;
  id: string;
}
