import type { Instant } from '../kernel/instant';
import { instant, list, nullable, orNull, shape, value, valueOr, type Domain } from '../kernel/shape';

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

export const VISIT_OUTCOMES = ['completed', 'in_progress', 'no_show'] as const;
export type VisitOutcome = (typeof VISIT_OUTCOMES)[number];

export const IMPRINT_STATUSES = ['active', 'released', 'charged'] as const;
export type ImprintStatus = (typeof IMPRINT_STATUSES)[number];

/** How a provider's write ended: applied, or older than what is stored. */
export const WRITE_OUTCOMES = ['applied', 'stale'] as const;
export type WriteOutcome = (typeof WRITE_OUTCOMES)[number];

/*
 * Each shape below is the one list of its fields: the domain type is derived from it, and
 * so are the wire form (contract) and the stored form (jsonb and row, persistence). The
 * defaults are those a request may leave out.
 */

export const recentVisitShape = shape({
  occurredAt: instant(),
  tableLabel: nullable<string>(),
  covers: nullable<number>(),
  spendMinor: nullable<number>(),
  outcome: value<VisitOutcome>(),
});
export interface RecentVisit extends Domain<typeof recentVisitShape> {}

/** Guest with every default filled in (the response form). */
export const guestShape = shape({
  name: nullable<string>(),
  phone: nullable<string>(),
  email: nullable<string>(),
  vip: valueOr(false),
  firstVisit: valueOr(false),
  visitCount: nullable<number>(),
  occasion: nullable<string>(),
  allergies: nullable<string>(),
  tags: list(value<string>()),
  memberSince: orNull(instant()),
  averageSpendMinor: nullable<number>(),
  noShowCount: nullable<number>(),
  recentVisits: list(recentVisitShape),
});
export interface Guest extends Domain<typeof guestShape> {}

export const prepaymentItemShape = shape({ label: value<string>(), amountMinor: value<number>() });
export interface PrepaymentItem extends Domain<typeof prepaymentItemShape> {}

export const imprintShape = shape({ amountMinor: value<number>(), status: value<ImprintStatus>() });
export interface Imprint extends Domain<typeof imprintShape> {}

export const prepaymentShape = shape({
  prepaidMinor: value<number>(),
  currency: value<string>(),
  items: list(prepaymentItemShape),
  imprint: orNull(imprintShape),
});
export interface Prepayment extends Domain<typeof prepaymentShape> {}

/** The fields a provider writes, in the order every form lists them. */
const providerFields = {
  externalId: value<string>(),
  status: value<ReservationStatus>(),
  partyName: nullable<string>(),
  covers: value<number>(),
  startsAt: instant(),
  endsAt: orNull(instant()),
  tableIds: list(value<string>()),
  guest: orNull(guestShape),
  internalNote: nullable<string>(),
  prepayment: orNull(prepaymentShape),
  posOrderId: nullable<string>(),
  updatedAt: instant(),
};

/**
 * What a provider writes (POST or PUT body), already shape-validated at the edge and
 * with every default filled in.
 */
export const reservationInputShape = shape(providerFields);
export interface ReservationInput extends Domain<typeof reservationInputShape> {}

/** The stored reservation: the provider's fields plus what the service sets. */
export const reservationShape = shape({
  id: value<string>(),
  locationId: value<string>(),
  ...providerFields,
  linkedOrderId: nullable<string>(),
  arrivedAt: orNull(instant()),
  receivedAt: instant(),
});
export interface Reservation extends Domain<typeof reservationShape> {}

/** Keyset position in the window listing, ordered by (startsAt, id). */
export interface ReservationCursor {
  startsAt: Instant;
  id: string;
}
