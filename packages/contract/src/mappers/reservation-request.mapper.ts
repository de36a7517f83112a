import type { Guest, Prepayment, ReservationInput } from '@pis/domain';
import type { ReservationRequest } from '../wire-types';
import { toInstant, toNullableInstant } from './instant';

type GuestRequest = NonNullable<ReservationRequest['guest']>;
type PrepaymentRequest = NonNullable<ReservationRequest['prepayment']>;

/** A validated POST/PUT body as the domain's input: every default filled, every date-time an Instant. */
export function toReservationInput(body: ReservationRequest): ReservationInput {
  return {
    externalId: body.externalId,
    status: body.status,
    partyName: body.partyName ?? null,
    covers: body.covers,
    startsAt: toInstant(body.startsAt),
    endsAt: toNullableInstant(body.endsAt),
    tableIds: [...(body.tableIds ?? [])],
    guest: body.guest ? toGuest(body.guest) : null,
    internalNote: body.internalNote ?? null,
    prepayment: body.prepayment ? toPrepayment(body.prepayment) : null,
    posOrderId: body.posOrderId ?? null,
    updatedAt: toInstant(body.updatedAt),
  };
}

function toGuest(g: GuestRequest): Guest {
  return {
    name: g.name ?? null,
    phone: g.phone ?? null,
    email: g.email ?? null,
    vip: g.vip ?? false,
    firstVisit: g.firstVisit ?? false,
    visitCount: g.visitCount ?? null,
    occasion: g.occasion ?? null,
    allergies: g.allergies ?? null,
    tags: [...(g.tags ?? [])],
    memberSince: toNullableInstant(g.memberSince),
    averageSpendMinor: g.averageSpendMinor ?? null,
    noShowCount: g.noShowCount ?? null,
    recentVisits: (g.recentVisits ?? []).map((v) => ({
      occurredAt: toInstant(v.occurredAt),
      tableLabel: v.tableLabel ?? null,
      covers: v.covers ?? null,
      spendMinor: v.spendMinor ?? null,
      outcome: v.outcome,
    })),
  };
}

function toPrepayment(p: PrepaymentRequest): Prepayment {
  return {
    prepaidMinor: p.prepaidMinor,
    currency: p.currency,
    items: (p.items ?? []).map((i) => ({ label: i.label, amountMinor: i.amountMinor })),
    imprint: p.imprint ? { amountMinor: p.imprint.amountMinor, status: p.imprint.status } : null,
  };
}
