import type {
  Guest,
  ImprintStatus,
  Prepayment,
  RecentVisit,
  Reservation,
  ReservationStatus,
  VisitOutcome,
} from '@pis/domain';
import { instantFromDb, instantToDb, nullableInstantFromDb, nullableInstantToDb } from '../db-instant';
import type {
  GuestJson,
  PrepaymentJson,
  RecentVisitJson,
  ReservationRow,
} from '../schemas/reservation.schema';

export const reservationMapper = {
  toDomain(row: ReservationRow): Reservation {
    return {
      id: row.id,
      locationId: row.location_id,
      externalId: row.external_id,
      status: row.status as ReservationStatus,
      partyName: row.party_name,
      covers: row.covers,
      startsAt: instantFromDb(row.starts_at),
      endsAt: nullableInstantFromDb(row.ends_at),
      tableIds: [...row.table_ids],
      guest: row.guest === null ? null : guestToDomain(row.guest),
      internalNote: row.internal_note,
      prepayment: row.prepayment === null ? null : prepaymentToDomain(row.prepayment),
      posOrderId: row.pos_order_id,
      updatedAt: instantFromDb(row.updated_at),
      linkedOrderId: row.linked_order_id,
      arrivedAt: nullableInstantFromDb(row.arrived_at),
      receivedAt: instantFromDb(row.received_at),
    };
  },
  toPersistence(r: Reservation): ReservationRow {
    return {
      id: r.id,
      location_id: r.locationId,
      external_id: r.externalId,
      status: r.status,
      party_name: r.partyName,
      covers: r.covers,
      starts_at: instantToDb(r.startsAt),
      ends_at: nullableInstantToDb(r.endsAt),
      table_ids: [...r.tableIds],
      guest: r.guest === null ? null : guestToJson(r.guest),
      internal_note: r.internalNote,
      prepayment: r.prepayment === null ? null : prepaymentToJson(r.prepayment),
      pos_order_id: r.posOrderId,
      updated_at: instantToDb(r.updatedAt),
      linked_order_id: r.linkedOrderId,
      arrived_at: nullableInstantToDb(r.arrivedAt),
      received_at: instantToDb(r.receivedAt),
    };
  },
};

function guestToDomain(g: GuestJson): Guest {
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
    memberSince: nullableInstantFromDb(g.memberSince),
    averageSpendMinor: g.averageSpendMinor,
    noShowCount: g.noShowCount,
    recentVisits: g.recentVisits.map(visitToDomain),
  };
}

function guestToJson(g: Guest): GuestJson {
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
    memberSince: nullableInstantToDb(g.memberSince),
    averageSpendMinor: g.averageSpendMinor,
    noShowCount: g.noShowCount,
    recentVisits: g.recentVisits.map(visitToJson),
  };
}

function visitToDomain(v: RecentVisitJson): RecentVisit {
  return {
    occurredAt: instantFromDb(v.occurredAt),
    tableLabel: v.tableLabel,
    covers: v.covers,
    spendMinor: v.spendMinor,
    outcome: v.outcome as VisitOutcome,
  };
}

function visitToJson(v: RecentVisit): RecentVisitJson {
  return {
    occurredAt: instantToDb(v.occurredAt),
    tableLabel: v.tableLabel,
    covers: v.covers,
    spendMinor: v.spendMinor,
    outcome: v.outcome,
  };
}

function prepaymentToDomain(p: PrepaymentJson): Prepayment {
  return {
    prepaidMinor: p.prepaidMinor,
    currency: p.currency,
    items: p.items.map((i) => ({ label: i.label, amountMinor: i.amountMinor })),
    imprint:
      p.imprint === null
        ? null
        : { amountMinor: p.imprint.amountMinor, status: p.imprint.status as ImprintStatus },
  };
}

function prepaymentToJson(p: Prepayment): PrepaymentJson {
  return {
    prepaidMinor: p.prepaidMinor,
    currency: p.currency,
    items: p.items.map((i) => ({ label: i.label, amountMinor: i.amountMinor })),
    imprint: p.imprint === null ? null : { amountMinor: p.imprint.amountMinor, status: p.imprint.status },
  };
}
