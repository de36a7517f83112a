import type {
  Guest,
  Instant,
  Page,
  Prepayment,
  Reservation,
  ReservationCursor,
  ReservationWriteResult,
} from '@pis/domain';
import type {
  GuestResponse,
  PrepaymentResponse,
  ReservationListResponse,
  ReservationResponse,
  ReservationWriteResponse,
} from '../wire-types';
import { encodeReservationCursor } from './cursor';
import { toNullableIso } from './instant';

/** The response form: every field present, date-times in UTC with milliseconds, nothing else (no locationId). */
export function toReservationResponse(r: Reservation): ReservationResponse {
  return {
    id: r.id,
    externalId: r.externalId,
    status: r.status,
    partyName: r.partyName,
    covers: r.covers,
    startsAt: r.startsAt.toIso(),
    endsAt: toNullableIso(r.endsAt),
    tableIds: [...r.tableIds],
    guest: r.guest === null ? null : toGuestResponse(r.guest),
    internalNote: r.internalNote,
    prepayment: r.prepayment === null ? null : toPrepaymentResponse(r.prepayment),
    posOrderId: r.posOrderId,
    updatedAt: r.updatedAt.toIso(),
    linkedOrderId: r.linkedOrderId,
    arrivedAt: toNullableIso(r.arrivedAt),
    receivedAt: r.receivedAt.toIso(),
  };
}

function toGuestResponse(g: Guest): GuestResponse {
  return {
    name: g.name,
    phone: g.phone,
    email: g.email,
    vip: g.vip,
    firstVisit: g.firstVisit,
    visitCount: g.visitCount,
    occasion: g.occasion,
    allergies: g.allergies,
    tags: [...g.tags],
    memberSince: toNullableIso(g.memberSince),
    averageSpendMinor: g.averageSpendMinor,
    noShowCount: g.noShowCount,
    recentVisits: g.recentVisits.map((v) => ({
      occurredAt: v.occurredAt.toIso(),
      tableLabel: v.tableLabel,
      covers: v.covers,
      spendMinor: v.spendMinor,
      outcome: v.outcome,
    })),
  };
}

function toPrepaymentResponse(p: Prepayment): PrepaymentResponse {
  return {
    prepaidMinor: p.prepaidMinor,
    currency: p.currency,
    items: p.items.map((i) => ({ label: i.label, amountMinor: i.amountMinor })),
    imprint: p.imprint === null ? null : { amountMinor: p.imprint.amountMinor, status: p.imprint.status },
  };
}

export function toReservationWriteResponse(result: ReservationWriteResult): ReservationWriteResponse {
  return { outcome: result.outcome, reservation: toReservationResponse(result.reservation) };
}

export function toReservationListResponse(
  page: Page<Reservation, ReservationCursor>,
  generatedAt: Instant,
): ReservationListResponse {
  return {
    reservations: page.items.map(toReservationResponse),
    generatedAt: generatedAt.toIso(),
    nextCursor: page.next === null ? null : encodeReservationCursor(page.next),
  };
}
