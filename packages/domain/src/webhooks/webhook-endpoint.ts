import type { EventType } from '../events/domain-event';
import type { Instant } from '../shared/instant';

export interface WebhookSecret {
  secret: string;
  /** null for the current secret; a rotated-out secret keeps signing until then. */
  expiresAt: Instant | null;
}

/** One endpoint per location. */
export interface WebhookEndpoint {
  id: string;
  locationId: string;
  url: string;
  events: EventType[];
  /** Current secret first, then older ones still inside their overlap window. */
  secrets: WebhookSecret[];
  createdAt: Instant;
  updatedAt: Instant;
  /** Set when a receiver answered 410 Gone; a PUT re-enables it. */
  disabledAt: Instant | null;
}
