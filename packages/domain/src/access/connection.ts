import type { Instant } from '../kernel/instant';

export const CONNECTION_STATUSES = ['active', 'revoked'] as const;
export type ConnectionStatus = (typeof CONNECTION_STATUSES)[number];

/**
 * A provider's connection to a location: granted by the venue's operator, revocable, granted
 * again at will. `grantedAt` is the latest grant and `revokedAt` the latest revoke (null while
 * active). The store also keeps which of the location's events fell inside a grant (see
 * `ConnectionRepository`), so the feed shows a provider exactly the events committed while it
 * was connected.
 */
export interface Connection {
  locationId: string;
  providerId: string;
  status: ConnectionStatus;
  grantedAt: Instant;
  revokedAt: Instant | null;
}

/** A connection as the operator lists a location's: with the provider's name, and whether it is the location's own. */
export interface LocationConnection extends Connection {
  providerName: string;
  own: boolean;
}

/** A connection as its provider lists it: with what it needs to know of the location. */
export interface ProviderConnection extends Connection {
  name: string;
  currency: string;
  sandbox: boolean;
}

/** Keyset position in a provider's connections, ordered by (grantedAt, locationId). */
export interface ConnectionCursor {
  grantedAt: Instant;
  locationId: string;
}

/**
 * The sequences of a location's events a connection was active for: each span starts after
 * the location's last sequence when a grant committed and ends with its last sequence when the
 * revoke committed (`through` null: still active). Grants and revokes take their fence under
 * the same lock the outbox takes to hand out sequences, so an event is inside a span exactly
 * when it committed while the provider was connected.
 */
export interface ConnectedSpan {
  after: number;
  through: number | null;
}

/** Whether the event of `sequence` committed while one of `spans` was active. */
export const withinSpans = (spans: readonly ConnectedSpan[], sequence: number): boolean =>
  spans.some((s) => sequence > s.after && (s.through === null || sequence <= s.through));
