import { EVENT_TYPES, type EventType } from '../events/domain-event';
import type { Instant } from '../kernel/instant';

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
  type: EventType,
): boolean {
  return endpoint.disabledAt === null && endpoint.events.includes(type);
}
