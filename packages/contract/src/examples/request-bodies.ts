import type {
  FloorPlanImportRequest,
  LocationCreateRequest,
  OrderCreateRequest,
  OrderDiscountRequest,
  OrderItemRequest,
  OrderMoveRequest,
  OrderPaymentRequest,
  OrderServiceStatusRequest,
  ProviderCreateRequest,
  ProviderKeyRequest,
  RecoverRequest,
  ReservationRequest,
  TablePatchRequest,
  WebhookEndpointCreateRequest,
  WebhookEndpointRequest,
} from '../wire-types';

/**
 * Request bodies shaped like a provider's and an operator's real ones. The contract's tests
 * send them, and the OpenAPI document's examples are these bodies as the service received them
 * and what it answered (packages/http/test/openapi-examples records both), so the reference
 * shows what the tests prove. Each call returns a fresh copy.
 */

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
    {
      externalId: 'room-terrace',
      name: 'Terrace',
      order: 5,
      canvasWidth: 800,
      canvasHeight: 600.5,
      tables: [
        { externalId: 't-10', label: 'T10', seatCount: 4, x: 200, y: 300 },
        { externalId: 't-11', label: 'T11', seatCount: 4, x: 400, y: 300 },
      ],
    },
  ],
});

export const webhookEndpointBody = (): WebhookEndpointRequest => ({
  url: 'https://hooks.example.com/pis/webhooks',
});

export const webhookEndpointCreateBody = (): WebhookEndpointCreateRequest => ({
  url: 'https://kitchen.example.com/pis/webhooks',
  eventTypes: ['table.occupied', 'table.freed'],
  description: 'kitchen display',
});

export const locationBody = (): LocationCreateRequest => ({
  name: 'Trattoria Lovelace',
  brand: 'acme',
  currency: 'EUR',
});

/** A booking system that works for many locations with one key. */
export const providerBody = (): ProviderCreateRequest => ({ name: 'Tablebook', brand: 'tablebook' });

export const providerKeyBody = (): ProviderKeyRequest => ({ mode: 'live' });

/** A sandbox location: its keys are test keys, which drive the till simulator. */
export const sandboxLocationBody = (): LocationCreateRequest => ({
  name: 'Trattoria Lovelace (sandbox)',
  brand: 'acme',
  currency: 'EUR',
  sandbox: true,
});

export const tablePatchBody = (): TablePatchRequest => ({ label: 'T2 window', seatCount: 6 });

export const walkInBody = (tableIds: string[]): OrderCreateRequest => ({ tableIds, covers: 2 });

/** What the full reservation's deposit was for. */
export const orderItemBody = (): OrderItemRequest => ({
  label: 'Tasting menu',
  amountMinor: 4500,
  quantity: 2,
  taxRateBps: 1000,
  course: 'main',
});

export const orderDiscountBody = (): OrderDiscountRequest => ({ label: 'Regulars', amountMinor: 300 });

/** With the full reservation's deposit, this settles two tasting menus less the discount. */
export const orderPaymentBody = (): OrderPaymentRequest => ({
  amountMinor: 3700,
  tipMinor: 400,
  tender: 'card',
});

export const serviceStatusBody = (): OrderServiceStatusRequest => ({ status: 'mains' });

export const moveBody = (tableIds: string[]): OrderMoveRequest => ({ tableIds });

/** Recover everything after a sequence the receiver has applied... */
export const recoverAfterBody = (afterSequence: number): RecoverRequest => ({ afterSequence });

/** ...or everything after an instant (here without seconds, as a request may write it). */
export const recoverSinceBody = (): RecoverRequest => ({ since: '2026-11-21T18:00+01:00' });
