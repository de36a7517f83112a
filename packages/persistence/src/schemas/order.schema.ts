import { EntitySchema } from 'typeorm';
import { instant, int, jsonb, primaryUuid, text, uuid, uuidArray, type InstantText } from './columns';

export interface OrderItemJson {
  label: string;
  amountMinor: number;
  quantity: number;
}

export interface OrderRow {
  id: string;
  location_id: string;
  table_ids: string[];
  covers: number;
  spend_minor: number;
  currency: string;
  status: string;
  reservation_external_id: string | null;
  items: OrderItemJson[];
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
    items: jsonb(),
    opened_at: instant(),
    closed_at: instant(true),
  },
});
