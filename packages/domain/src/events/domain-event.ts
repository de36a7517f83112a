import type { CheckDiscount, CheckItem, CheckPayment, CheckTotals } from '../orders/check';
import type { ServiceStatus } from '../orders/service-status';
import type { FloorPlanChanges } from '../floorplan/floor-plan-changes';
import type { Instant } from '../kernel/instant';

export const EVENT_TYPES = [
  'floorplan.published',
  'table.occupied',
  'table.freed',
  'table.spend_updated',
  'table.status_changed',
  'order.closed',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/**
 * Events about a provider's connection to a location, delivered to that provider's
 * provider-scope endpoints only: outside every location's sequence and feed.
 */
export const CONNECTION_EVENT_TYPES = ['connection.granted', 'connection.revoked'] as const;
export type ConnectionEventType = (typeof CONNECTION_EVENT_TYPES)[number];

/** Every type a webhook endpoint may subscribe to: the location events, then the connection events. */
export const WEBHOOK_EVENT_TYPES = [...EVENT_TYPES, ...CONNECTION_EVENT_TYPES] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

export const isConnectionEventType = (type: string): type is ConnectionEventType =>
  (CONNECTION_EVENT_TYPES as readonly string[]).includes(type);

export const TABLE_FREED_REASONS = ['closed', 'moved', 'voided'] as const;
export type TableFreedReason = (typeof TABLE_FREED_REASONS)[number];

/** The totals `table.spend_updated` carries beside `spendMinor` (which is the total). */
export type CheckTotalsData = Omit<CheckTotals, 'totalMinor'>;

/** The check as the wire shows it, on every order answer and in `order.closed`. */
export type CheckData = CheckTotals & {
  items: CheckItem[];
  discounts: CheckDiscount[];
  payments: (Omit<CheckPayment, 'paidAt'> & { paidAt: string })[];
};

/** `data` of each event type as docs/reference/webhooks.md#events lists it, without the sequence. */
export interface EventDataByType {
  'floorplan.published': { version: number; publishedAt: string; changes: FloorPlanChanges };
  'table.occupied': {
    tableId: string;
    orderId: string;
    reservationExternalId: string | null;
    covers: number;
    occurredAt: string;
  };
  'table.freed': {
    tableId: string;
    orderId: string;
    reservationExternalId: string | null;
    reason: TableFreedReason;
    occurredAt: string;
  };
  'table.spend_updated': {
    tableIds: string[];
    orderId: string;
    reservationExternalId: string | null;
    spendMinor: number;
    currency: string;
    covers: number;
    occurredAt: string;
    totals: CheckTotalsData;
  };
  'table.status_changed': {
    tableIds: string[];
    orderId: string;
    reservationExternalId: string | null;
    serviceStatus: ServiceStatus;
    occurredAt: string;
  };
  'order.closed': {
    orderId: string;
    reservationExternalId: string | null;
    tableIds: string[];
    covers: number;
    currency: string;
    openedAt: string;
    closedAt: string;
    check: CheckData;
  };
}

/**
 * An event as the domain raises it. `reservationProviderId` is the provider that owns the
 * reservation the event names (absent when it names none, e.g. a walk-in or a publish): it
 * travels beside the body, never in it, so whoever shows the event to a reader applies
 * `eventVisibleTo` in one call.
 */
export type DomainEvent = {
  [K in EventType]: {
    type: K;
    occurredAt: Instant;
    data: EventDataByType[K];
    reservationProviderId?: string;
  };
}[EventType];

/** An event as the outbox stored it: with its id and its per-location sequence. */
export type StoredEvent = DomainEvent & {
  id: string;
  locationId: string;
  /** Per location, strictly increasing (1, 2, 3, ...). */
  sequence: number;
  /**
   * The trace context of the write that raised the event (W3C `traceparent`, perhaps
   * `tracestate`), when tracing was on: the event's deliveries continue that trace. Never in a body.
   */
  traceContext?: Readonly<Record<string, string>>;
};

/** `connection.granted` / `connection.revoked` as the grant or revoke raises it, for one provider. */
export interface ConnectionEvent {
  type: ConnectionEventType;
  occurredAt: Instant;
  data: { locationName: string; occurredAt: string };
}

/**
 * A connection event as the outbox stored it: with its id, the location it is about and the
 * provider it is for, and no sequence (it is in no location's feed).
 */
export type StoredConnectionEvent = ConnectionEvent & {
  id: string;
  locationId: string;
  providerId: string;
  sequence: null;
  reservationProviderId?: undefined;
  traceContext?: Readonly<Record<string, string>>;
};

/** What a webhook delivery carries: a location's event, or a provider's connection event. */
export type DeliverableEvent = StoredEvent | StoredConnectionEvent;
