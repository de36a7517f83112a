import { randomUUID } from 'node:crypto';
import type { Guest, Prepayment, Reservation, ReservationInput } from '../../src';
import { at } from './instants';

let counter = 0;

/** A fresh externalId per call (`R-1`, `R-2`, ...), so builders never collide by accident. */
export function nextExternalId(prefix = 'R'): string {
  counter += 1;
  return `${prefix}-${counter}`;
}

/** A valid, minimal reservation write: booked, no tables, every optional field at its default. */
export function aReservationInput(overrides: Partial<ReservationInput> = {}): ReservationInput {
  return {
    externalId: nextExternalId(),
    status: 'booked',
    partyName: null,
    covers: 2,
    startsAt: at('2026-11-21T19:00:00Z'),
    endsAt: null,
    tableIds: [],
    guest: null,
    internalNote: null,
    prepayment: null,
    posOrderId: null,
    updatedAt: at('2026-11-20T10:00:00Z'),
    ...overrides,
  };
}

/** A guest with every field filled, instants with microseconds. */
export function aGuest(overrides: Partial<Guest> = {}): Guest {
  return {
    name: 'Ada Lovelace',
    phone: '+44 20 7946 0000',
    email: 'ada@example.com',
    vip: true,
    firstVisit: false,
    visitCount: 7,
    occasion: 'birthday',
    allergies: 'peanuts',
    tags: ['regular', 'window'],
    memberSince: at('2019-03-01T12:00:00.654321Z'),
    averageSpendMinor: 5400,
    noShowCount: 0,
    recentVisits: [
      {
        occurredAt: at('2026-10-01T20:15:00.000001Z'),
        tableLabel: 'T4',
        covers: 2,
        spendMinor: 8800,
        outcome: 'completed',
      },
      {
        occurredAt: at('2026-09-01T19:00:00Z'),
        tableLabel: null,
        covers: null,
        spendMinor: null,
        outcome: 'no_show',
      },
    ],
    ...overrides,
  };
}

export function aPrepayment(overrides: Partial<Prepayment> = {}): Prepayment {
  return {
    prepaidMinor: 5000,
    currency: 'EUR',
    items: [
      { label: 'Tasting menu deposit', amountMinor: 4000 },
      { label: 'Wine pairing', amountMinor: 1000 },
    ],
    imprint: { amountMinor: 10000, status: 'active' },
    ...overrides,
  };
}

/** A write with every optional field filled: guest, prepayment, note, end time, posOrderId. */
export function aFullReservationInput(overrides: Partial<ReservationInput> = {}): ReservationInput {
  return aReservationInput({
    status: 'confirmed',
    partyName: 'Lovelace',
    covers: 4,
    startsAt: at('2026-11-21T19:00:00.123456Z'),
    endsAt: at('2026-11-21T21:30:00.654321Z'),
    guest: aGuest(),
    internalNote: 'Quiet corner, please',
    prepayment: aPrepayment(),
    posOrderId: 'pos-42',
    updatedAt: at('2026-11-20T10:00:00.000001Z'),
    ...overrides,
  });
}

/** A stored reservation record (what repositories hold), for port-level tests. */
export function aReservation(locationId: string, overrides: Partial<Reservation> = {}): Reservation {
  return {
    ...aReservationInput(),
    id: randomUUID(),
    locationId,
    linkedOrderId: null,
    arrivedAt: null,
    receivedAt: at('2026-11-20T10:00:01.000001Z'),
    ...overrides,
  };
}
