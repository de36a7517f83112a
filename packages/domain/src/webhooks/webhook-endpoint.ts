import {
  EVENT_TYPES,
  WEBHOOK_EVENT_TYPES,
  type EventType,
  type WebhookEventType,
} from '../events/domain-event';
import type { Instant } from '../kernel/instant';
import { ownProviderId } from '../access/provider';

export interface WebhookSecret {
  secret: string;
  /** null for the current secret; a rotated-out secret keeps signing until then. */
  expiresAt: Instant | null;
}

/**
 * A receiver of events, belonging to one provider. A location-scope endpoint receives one
 * location's events (its provider is the location's own or one connected to it); a
 * provider-scope endpoint (`locationId` null) receives the events of every location its
 * provider is connected to, and that provider's connection events. A location has at most one
 * `singleton` endpoint (the one `PUT /webhook-endpoint` manages, its own provider's) and each
 * scope at most `ENDPOINTS_PER_SCOPE` endpoints.
 */
export interface WebhookEndpoint {
  id: string;
  /** The location of a location-scope endpoint; null for a provider-scope one. */
  locationId: string | null;
  /** The provider it belongs to: it is sent the events as that provider may see them. */
  providerId: string;
  /** Free text for its owner (at most 200 characters); null when none was given. */
  description: string | null;
  /** The location's endpoint of `PUT /webhook-endpoint`. */
  singleton: boolean;
  url: string;
  /** The types it subscribes to; connection events only ever reach a provider-scope endpoint. */
  events: WebhookEventType[];
  /** Current secret first, then older ones still inside their overlap window. */
  secrets: WebhookSecret[];
  createdAt: Instant;
  updatedAt: Instant;
  /**
   * Set when deliveries stopped: the receiver answered 410 Gone, or every attempt failed for
   * `WEBHOOK_DISABLE_AFTER_HOURS`. Events are still kept; a PUT re-enables the endpoint.
   */
  disabledAt: Instant | null;
  /** Why it was disabled, a sentence; null while enabled. */
  disabledReason: string | null;
  /** When the current run of failed attempts began (no success since); null after a success. */
  failingSince: Instant | null;
}

/** `enabled` unless deliveries were stopped (see `disabledAt`). */
export const endpointStatus = (e: Pick<WebhookEndpoint, 'disabledAt'>): 'enabled' | 'disabled' =>
  e.disabledAt === null ? 'enabled' : 'disabled';

/** Why an endpoint whose receiver answered 410 Gone is disabled. */
export const GONE_REASON = 'the receiver answered 410 Gone';

/** Why an endpoint is disabled after failing for `hours`. */
export const failingReason = (hours: number): string => `every delivery attempt failed for ${hours} hours`;

/** How long a rotated-out secret keeps signing beside the new one. */
export const SECRET_OVERLAP_MICROS = 24n * 3600n * 1_000_000n;

export interface EndpointRegistration {
  id: string;
  locationId: string;
  url: string;
  events: EventType[] | null;
  newSecret: string;
  now: Instant;
}

/**
 * Registering over an existing endpoint keeps its id, creation time and secrets (receivers
 * keep verifying) and re-enables it; a first registration gets a new secret.
 */
export function registerEndpoint(
  existing: WebhookEndpoint | null,
  reg: EndpointRegistration,
): WebhookEndpoint {
  const events = reg.events === null ? [...EVENT_TYPES] : EVENT_TYPES.filter((t) => reg.events!.includes(t));
  if (existing === null) {
    return {
      id: reg.id,
      locationId: reg.locationId,
      providerId: ownProviderId(reg.locationId),
      description: null,
      singleton: true,
      url: reg.url,
      events,
      secrets: [{ secret: reg.newSecret, expiresAt: null }],
      createdAt: reg.now,
      updatedAt: reg.now,
      disabledAt: null,
      disabledReason: null,
      failingSince: null,
    };
  }
  return {
    ...existing,
    url: reg.url,
    events,
    secrets: liveSecrets(existing, reg.now),
    updatedAt: reg.now,
    disabledAt: null,
    disabledReason: null,
    failingSince: null,
  };
}

/** The new secret signs from now on; the previous current one keeps signing for 24 h. */
export function rotateSecret(endpoint: WebhookEndpoint, newSecret: string, now: Instant): WebhookEndpoint {
  const previous = liveSecrets(endpoint, now).map((s) =>
    s.expiresAt === null ? { secret: s.secret, expiresAt: now.plusMicros(SECRET_OVERLAP_MICROS) } : s,
  );
  return { ...endpoint, secrets: [{ secret: newSecret, expiresAt: null }, ...previous], updatedAt: now };
}

/** Secrets that sign a delivery made at `now`: the current one and those not yet expired. */
export function liveSecrets(endpoint: Pick<WebhookEndpoint, 'secrets'>, now: Instant): WebhookSecret[] {
  return endpoint.secrets.filter((s) => s.expiresAt === null || s.expiresAt.isAfter(now));
}

export function currentSecret(endpoint: Pick<WebhookEndpoint, 'secrets'>): string {
  const current = endpoint.secrets.find((s) => s.expiresAt === null);
  if (!current) throw new Error('a webhook endpoint always has a current secret');
  return current.secret;
}

export function wantsEvent(
  endpoint: Pick<WebhookEndpoint, 'events' | 'disabledAt'>,
  type: WebhookEventType,
): boolean {
  return endpoint.disabledAt === null && endpoint.events.includes(type);
}

/** At most this many endpoints per scope (a provider at a location, or a provider as a whole). */
export const ENDPOINTS_PER_SCOPE = 10;

/** The types an endpoint of the scope may subscribe to (and gets when it names none). */
export const subscribableTypes = (locationId: string | null): readonly WebhookEventType[] =>
  locationId === null ? WEBHOOK_EVENT_TYPES : EVENT_TYPES;

export interface EndpointCreation {
  id: string;
  /** null: a provider-scope endpoint. */
  locationId: string | null;
  providerId: string;
  url: string;
  events: WebhookEventType[] | null;
  description: string | null;
  newSecret: string;
  now: Instant;
}

/** A new endpoint of `POST /webhook-endpoints`, with its own new secret. */
export function createEndpoint(c: EndpointCreation): WebhookEndpoint {
  const types = subscribableTypes(c.locationId);
  return {
    id: c.id,
    locationId: c.locationId,
    url: c.url,
    events: c.events === null ? [...types] : types.filter((t) => c.events!.includes(t)),
    secrets: [{ secret: c.newSecret, expiresAt: null }],
    createdAt: c.now,
    updatedAt: c.now,
    disabledAt: null,
    disabledReason: null,
    failingSince: null,
    providerId: c.providerId,
    description: c.description,
    singleton: false,
  };
}

export interface EndpointChange {
  url?: string;
  events?: WebhookEventType[];
  description?: string | null;
}

/** A PATCH: what it names changes, its secrets, health and status stay as they are. */
export function changeEndpoint(
  endpoint: WebhookEndpoint,
  change: EndpointChange,
  now: Instant,
): WebhookEndpoint {
  return {
    ...endpoint,
    url: change.url ?? endpoint.url,
    events:
      change.events === undefined
        ? endpoint.events
        : subscribableTypes(endpoint.locationId).filter((t) => change.events!.includes(t)),
    description: change.description === undefined ? endpoint.description : change.description,
    updatedAt: now,
  };
}
