import type { FloorPlanImportRequest, ReservationRequest } from '../src/wire-types';

/** Request bodies shaped like a provider's real ones, for the contract's tests. */

export const minimalReservationBody = (): ReservationRequest => ({
  externalId: 'ot-10001',
  status: 'booked',
  covers: 2,
  startsAt: '2026-11-21T19:00:00Z',
  updatedAt: '2026-11-20T10:00:00Z',
});

/** Every field of the reservation request, every nested object present. */
export const fullReservationBody = (): ReservationRequest => ({
  externalId: 'ot-10002',
  status: 'confirmed',
  partyName: 'Lovelace party',
  covers: 4,
  startsAt: '2026-11-21T20:00+01:00',
  endsAt: '2026-11-21T22:00:00.5+01:00',
  tableIds: ['table-1', 'table-2'],
  guest: {
    name: 'Ada Lovelace',
    phone: '+44 20 7946 0000',
    email: 'ada@example.com',
    vip: true,
    firstVisit: false,
    visitCount: 7,
    occasion: 'birthday',
    allergies: 'peanuts',
    tags: ['regular', 'window'],
    memberSince: '2019-03-01T12:00:00.654321Z',
    averageSpendMinor: 5400,
    noShowCount: 0,
    recentVisits: [
      {
        occurredAt: '2026-10-01T20:15Z',
        tableLabel: 'T4',
        covers: 2,
        spendMinor: 8800,
        outcome: 'completed',
      },
      { occurredAt: '2026-09-01T19:00:00-05:30', outcome: 'no_show' },
    ],
  },
  internalNote: 'prefers the window',
  prepayment: {
    prepaidMinor: 5000,
    currency: 'EUR',
    items: [{ label: 'Tasting menu deposit', amountMinor: 5000 }],
    imprint: { amountMinor: 10000, status: 'active' },
  },
  posOrderId: 'pos-77',
  updatedAt: '2026-11-20T10:00:00.123456789Z',
});

export const importBody = (): FloorPlanImportRequest => ({
  rooms: [
    {
      externalId: 'room-main',
      name: 'Main room',
      tables: [
        { externalId: 't-1', label: 'T1', seatCount: 2, x: 100, y: 100 },
        {
          externalId: 't-2',
          label: 'T2',
          seatCount: 6,
          x: 300,
          y: 100,
          minCovers: 2,
          maxCovers: 6,
          rotation: 90,
          shape: 'rectangle',
        },
      ],
      decorations: [
        { kind: 'bar', x: 0, y: 900, width: 400, height: 60 },
        { kind: 'label', x: 500, y: 20, width: 100, height: 20, rotation: 0, text: 'Entrance' },
      ],
    },
    { externalId: 'room-terrace', name: 'Terrace', order: 5, canvasWidth: 800, canvasHeight: 600.5 },
  ],
});
