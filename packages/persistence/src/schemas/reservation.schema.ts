import { EntitySchema } from 'typeorm';
import { instant, int, jsonb, primaryUuid, text, textArray, uuid, type InstantText } from './columns';

/** Instants inside JSON are ISO 8601 UTC text with microseconds (`Instant.toIsoMicros`). */
export interface RecentVisitJson {
  occurredAt: string;
  tableLabel: string | null;
  covers: number | null;
  spendMinor: number | null;
  outcome: string;
}

export interface GuestJson {
  name: string | null;
  phone: string | null;
  email: string | null;
  vip: boolean;
  firstVisit: boolean;
  visitCount: number | null;
  occasion: string | null;
  allergies: string | null;
  tags: string[];
  memberSince: string | null;
  averageSpendMinor: number | null;
  noShowCount: number | null;
  recentVisits: RecentVisitJson[];
}

export interface PrepaymentJson {
  prepaidMinor: number;
  currency: string;
  items: { label: string; amountMinor: number }[];
  imprint: { amountMinor: number; status: string } | null;
}

export interface ReservationRow {
  id: string;
  location_id: string;
  external_id: string;
  status: string;
  party_name: string | null;
  covers: number;
  starts_at: InstantText;
  ends_at: InstantText | null;
  table_ids: string[];
  guest: GuestJson | null;
  internal_note: string | null;
  prepayment: PrepaymentJson | null;
  pos_order_id: string | null;
  updated_at: InstantText;
  linked_order_id: string | null;
  arrived_at: InstantText | null;
  received_at: InstantText;
}

export const reservationSchema = new EntitySchema<ReservationRow>({
  name: 'reservation',
  tableName: 'reservations',
  columns: {
    id: primaryUuid(),
    location_id: uuid(),
    external_id: text(),
    status: text(),
    party_name: text(true),
    covers: int(),
    starts_at: instant(),
    ends_at: instant(true),
    table_ids: textArray(),
    guest: jsonb(true),
    internal_note: text(true),
    prepayment: jsonb(true),
    pos_order_id: text(true),
    updated_at: instant(),
    linked_order_id: uuid({ nullable: true }),
    arrived_at: instant(true),
    received_at: instant(),
  },
});
