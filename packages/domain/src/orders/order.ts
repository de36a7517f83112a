import type { Instant } from '../shared/instant';

export type OrderStatus = 'open' | 'closed';

/** A till order. It belongs to the till: reservation writes never close, void or reopen it. */
export interface Order {
  id: string;
  locationId: string;
  tableIds: string[];
  covers: number;
  spendMinor: number;
  currency: string;
  status: OrderStatus;
  /** The reservation that seated it; null for a walk-in. */
  reservationExternalId: string | null;
  openedAt: Instant;
  closedAt: Instant | null;
}
