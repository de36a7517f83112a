import type { EventDataByType, EventType, StoredEvent } from '@pis/domain';

/**
 * The JSON body a webhook receiver gets for an event (docs/reference/webhooks.md#event-body),
 * before signing.
 */
export type WebhookBody = {
  [K in EventType]: {
    type: K;
    /** When the event happened, ISO 8601 UTC. */
    timestamp: string;
    data: EventDataByType[K] & { locationEventSequence: number };
  };
}[EventType];

/** What the provider's (or a till's) webhook handler receives for a stored outbox event. */
export function toWebhookBody(event: StoredEvent): WebhookBody {
  return {
    type: event.type,
    timestamp: event.occurredAt.toIso(),
    data: { ...event.data, locationEventSequence: event.sequence },
  } as WebhookBody;
}
