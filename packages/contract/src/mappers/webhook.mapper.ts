import {
  endpointStatus,
  currentSecret,
  type DeliveryCursor,
  type EventType,
  type Page,
  type StoredEvent,
  type WebhookDelivery,
  type WebhookEndpoint,
} from '@pis/domain';
import type {
  DeliveryListResponse,
  DeliveryResponse,
  WebhookEndpointRequest,
  WebhookEndpointResponse,
  WebhookEventBody,
} from '../wire-types';
import { encodeDeliveryCursor } from './cursor';
import { toNullableIso } from './instant';

/** `events` absent means every type (the domain fills them). */
export const toWebhookEndpointCommand = (
  body: WebhookEndpointRequest,
): { url: string; events: EventType[] | null } => ({
  url: body.url,
  events: body.events === undefined ? null : [...body.events],
});

/** Shows the current secret only; a rotated-out one keeps signing but is never shown again. */
export const toWebhookEndpointResponse = (e: WebhookEndpoint): WebhookEndpointResponse => ({
  url: e.url,
  events: [...e.events],
  secret: currentSecret(e),
  createdAt: e.createdAt.toIso(),
  updatedAt: e.updatedAt.toIso(),
  status: endpointStatus(e),
  disabledAt: e.disabledAt?.toIso() ?? null,
  disabledReason: e.disabledReason,
});

export const toDeliveryResponse = (d: WebhookDelivery): DeliveryResponse => ({
  id: d.id,
  eventId: d.eventId,
  eventType: d.eventType,
  locationEventSequence: d.sequence,
  status: d.status,
  attempts: d.attempts.map((a) => ({
    attemptedAt: a.attemptedAt.toIso(),
    responseStatus: a.responseStatus,
    durationMs: a.durationMs,
    error: a.error,
  })),
  nextAttemptAt: toNullableIso(d.nextAttemptAt),
  createdAt: d.createdAt.toIso(),
  updatedAt: d.updatedAt.toIso(),
});

export const toDeliveryListResponse = (
  page: Page<WebhookDelivery, DeliveryCursor>,
): DeliveryListResponse => ({
  deliveries: page.items.map(toDeliveryResponse),
  nextCursor: page.next === null ? null : encodeDeliveryCursor(page.next),
});

/**
 * The body the webhook sender signs and posts, and the OpenAPI document describes:
 * `{type, timestamp, data}` with the per-location sequence inside `data`.
 */
export function toWebhookEventBody(event: StoredEvent): WebhookEventBody {
  const timestamp = event.occurredAt.toIso();
  const locationEventSequence = event.sequence;
  switch (event.type) {
    case 'floorplan.published':
      return { type: event.type, timestamp, data: { ...event.data, locationEventSequence } };
    case 'table.occupied':
      return { type: event.type, timestamp, data: { ...event.data, locationEventSequence } };
    case 'table.freed':
      return { type: event.type, timestamp, data: { ...event.data, locationEventSequence } };
    case 'table.spend_updated':
      return {
        type: event.type,
        timestamp,
        data: {
          ...event.data,
          tableIds: [...event.data.tableIds],
          totals: { ...event.data.totals },
          locationEventSequence,
        },
      };
    case 'table.status_changed':
      return {
        type: event.type,
        timestamp,
        data: { ...event.data, tableIds: [...event.data.tableIds], locationEventSequence },
      };
    case 'order.closed':
      return {
        type: event.type,
        timestamp,
        data: { ...event.data, tableIds: [...event.data.tableIds], locationEventSequence },
      };
  }
}
