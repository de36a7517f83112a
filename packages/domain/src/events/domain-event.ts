import type { Instant } from '../shared/instant';

export const EVENT_TYPES = [
  'floorplan.published',
  'table.occupied',
  'table.freed',
  'table.spend_updated',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export type TableFreedReason = 'closed' | 'moved' | 'voided';

/** `data` of each event type as decisions section 7 lists it, without the sequence. */
export interface EventDataByType {
  'floorplan.published': { version: number; publishedAt: string };
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
  };
}

export type DomainEvent = {
  [K in EventType]: { type: K; occurredAt: Instant; data: EventDataByType[K] };
}[EventType];

/** An event as the outbox stored it: with its id and its per-location sequence. */
export type StoredEvent = DomainEvent & {
  id: string;
  locationId: string;
  /** Per location, strictly increasing (1, 2, 3, ...). */
  sequence: number;
};
