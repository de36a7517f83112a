import type { Instant } from '../shared/instant';

export const RESERVATION_STATUSES = [
  'booked',
  'confirmed',
  'arrived',
  'seated',
  'finished',
  'no_show',
  'cancelled',
] as const;
export type ReservationStatus = (typeof RESERVATION_STATUSES)[number];

export type VisitOutcome = 'completed' | 'in_progress' | 'no_show';
export type ImprintStatus = 'active' | 'released' | 'charged';

export interface RecentVisit {
  occurredAt: Instant;
  tableLabel: string | null;
  covers: number | null;
  spendMinor: number | null;
  outcome: VisitOutcome;
}

/** Guest with every default filled in (the response form). */
export interface Guest {
  name: string | null;
  phone: string | null;
  email: string | null;
  vip: boolean;
  firstVisit: boolean;
  visitCount: number | null;
  occasion: string | null;
  allergies: string | null;
  tags: string[];
  memberSince: Instant | null;
  averageSpendMinor: number | null;
  noShowCount: number | null;
  recentVisits: RecentVisit[];
}

export interface PrepaymentItem {
  label: string;
  amountMinor: number;
}

export interface Imprint {
  amountMinor: number;
  status: ImprintStatus;
}

export interface Prepayment {
  prepaidMinor: number;
  currency: string;
  items: PrepaymentItem[];
  imprint: Imprint | null;
}

/**
 * What a provider writes (POST or PUT body), already shape-validated at the edge and
 * with every default filled in.
 */
export interface ReservationInput {
  externalId: string;
  status: ReservationStatus;
  partyName: string | null;
  covers: number;
  startsAt: Instant;
  endsAt: Instant | null;
  tableIds: string[];
  guest: Guest | null;
  internalNote: string | null;
  prepayment: Prepayment | null;
  posOrderId: string | null;
  updatedAt: Instant;
}

/** The stored reservation: the provider's fields plus what the service sets. */
export interface Reservation extends ReservationInput {
  id: string;
  locationId: string;
  linkedOrderId: string | null;
  arrivedAt: Instant | null;
  receivedAt: Instant;
}

/** Keyset position in the window listing, ordered by (startsAt, id). */
export interface ReservationCursor {
  startsAt: Instant;
  id: string;
}
