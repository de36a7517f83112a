import { EntitySchema } from 'typeorm';
import { instant, int, jsonb, primaryUuid, text, uuid, uuidArray, type InstantText } from './columns';

/** The check's lines as the order row holds them (decision 0100); instants as ISO text with microseconds. */
export interface OrderItemJson {
  id: string;
  label: string;
  quantity: number;
  amountMinor: number;
  taxRateBps: number;
  course: string;
  voided: boolean;
}

export interface OrderDiscountJson {
  id: string;
  label: string;
  amountMinor: number;
}

export interface OrderPaymentJson {
  id: string;
  amountMinor: number;
  tipMinor: number;
  tender: string;
  paidAt: InstantText;
}

export interface OrderRow {
  id: string;
  location_id: string;
  table_ids: string[];
  covers: number;
  /** The check's total, written with the lines it is derived from (for SQL readers). */
  spend_minor: number;
  currency: string;
  status: string;
  reservation_external_id: string | null;
  /** The provider that owns that reservation; null for a walk-in. */
  reservation_provider_id: string | null;
  items: OrderItemJson[];
  discounts: OrderDiscountJson[];
  payments: OrderPaymentJson[];
  service_status: string | null;
  opened_at: InstantText;
  closed_at: InstantText | null;
}

export const orderSchema = new EntitySchema<OrderRow>({
  name: 'order',
  tableName: 'orders',
  columns: {
    id: primaryUuid(),
    location_id: uuid(),
    table_ids: uuidArray(),
    covers: int(),
    spend_minor: int(),
    currency: { type: 'char', length: 3 },
    status: text(),
    reservation_external_id: text(true),
    reservation_provider_id: uuid({ nullable: true }),
    items: jsonb(),
    discounts: jsonb(),
    payments: jsonb(),
    service_status: text(true),
    opened_at: instant(),
    closed_at: instant(true),
  },
});
