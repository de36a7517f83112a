import {
  endpointStatus,
  isConnectionEventType,
  currentSecret,
  type DeliveryCursor,
  type DeliverableEvent,
  type EventType,
  type Page,
  type StoredEvent,
  type WebhookEventType,
  type WebhookDelivery,
  type WebhookEndpoint,
} from '@pis/domain';
import type {
  DeliveryListResponse,
  DeliveryResponse,
  ScopedWebhookEndpointResponse,
  WebhookEndpointCreateRequest,
  WebhookEndpointPatchRequest,
  WebhookEndpointRequest,
  WebhookEndpointResponse,
  WebhookEventBody,
  LocationWebhookEventBody,
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
  // The singleton is a location's: it never subscribes to the connection events.
  events: e.events.filter((t): t is EventType => !isConnectionEventType(t)),
  secret: currentSecret(e),
  createdAt: e.createdAt.toIso(),
  updatedAt: e.updatedAt.toIso(),
  status: endpointStatus(e),
  disabledAt: e.disabledAt?.toIso() ?? null,
  disabledReason: e.disabledReason,
});

/** `eventTypes` absent means every type; an empty description is none. */
export const toWebhookEndpointCreation = (
  body: WebhookEndpointCreateRequest,
): { url: string; events: WebhookEventType[] | null; description: string | null } => ({
  url: body.url,
  events: body.eventTypes === undefined ? null : [...body.eventTypes],
  description: body.description === undefined || body.description === '' ? null : body.description,
});

/** Only what the PATCH names changes. */
export const toWebhookEndpointChange = (
  body: WebhookEndpointPatchRequest,
): { url?: string; events?: WebhookEventType[]; description?: string | null } => ({
  ...(body.url === undefined ? {} : { url: body.url }),
  ...(body.eventTypes === undefined ? {} : { events: [...body.eventTypes] }),
  ...(body.description === undefined
    ? {}
    : { description: body.description === '' ? null : body.description }),
});

/** An endpoint of POST /webhook-endpoints (or the singleton, read through them). */
export const toScopedWebhookEndpointResponse = (e: WebhookEndpoint): ScopedWebhookEndpointResponse => ({
  id: e.id,
  url: e.url,
  secret: currentSecret(e),
  eventTypes: [...e.events],
  description: e.description,
  scope: e.locationId === null ? 'provider' : 'location',
  locationId: e.locationId,
  status: endpointStatus(e),
  disabledReason: e.disabledReason,
  createdAt: e.createdAt.toIso(),
  updatedAt: e.updatedAt.toIso(),
});

export const toDeliveryResponse = (d: WebhookDelivery): DeliveryResponse => ({
  id: d.id,
  endpointId: d.endpointId,
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
 * `{type, timestamp, data}` with the location and its sequence inside `data`.
 */
export function toWebhookEventBody(event: StoredEvent): LocationWebhookEventBody;
export function toWebhookEventBody(event: DeliverableEvent): WebhookEventBody;
export function toWebhookEventBody(event: DeliverableEvent): WebhookEventBody {
  const timestamp = event.occurredAt.toIso();
  const { locationId } = event;
  // A connection event is in no location's sequence: its data carries none.
  if (event.sequence === null) {
    return { type: event.type, timestamp, data: { locationId, ...event.data } };
  }
  const locationEventSequence = event.sequence;
  switch (event.type) {
    case 'floorplan.published':
      return { type: event.type, timestamp, data: { ...event.data, locationId, locationEventSequence } };
    case 'table.occupied':
      return { type: event.type, timestamp, data: { ...event.data, locationId, locationEventSequence } };
    case 'table.freed':
      return { type: event.type, timestamp, data: { ...event.data, locationId, locationEventSequence } };
    case 'table.spend_updated':
      return {
        type: event.type,
        timestamp,
        data: {
          ...event.data,
          tableIds: [...event.data.tableIds],
          totals: { ...event.data.totals },
          locationId,
          locationEventSequence,
        },
      };
    case 'table.status_changed':
      return {
        type: event.type,
        timestamp,
        data: { ...event.data, tableIds: [...event.data.tableIds], locationId, locationEventSequence },
      };
    case 'order.closed':
      return {
        type: event.type,
        timestamp,
        data: { ...event.data, tableIds: [...event.data.tableIds], locationId, locationEventSequence },
      };
  }
}
