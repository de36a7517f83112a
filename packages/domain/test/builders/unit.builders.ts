// Fixed-id builders for the domain's unit tests (rules on one record, no store): a reservation,
// an order, a table, a room and a working plan with stable ids such as 'loc-1' and 't-1'.
import { at } from './instants';
import { aReservationInput } from './reservation.builders';
import type { Reservation, ReservationInput } from '../../src/reservations/reservation';
import { EMPTY_LINES, makeCheck } from '../../src/orders/check';
import type { Order } from '../../src/orders/order';
import type { Room, Table, WorkingPlan } from '../../src/floorplan/floor-plan';

/** `aReservationInput` with the fixed external id 'r-1'. */
export function reservationInput(overrides: Partial<ReservationInput> = {}): ReservationInput {
  return aReservationInput({ externalId: 'r-1', ...overrides });
}

export function storedReservation(overrides: Partial<Reservation> = {}): Reservation {
  return {
    ...reservationInput(),
    id: 'res-stored',
    locationId: 'loc-1',
    linkedOrderId: null,
    arrivedAt: null,
    receivedAt: at('2026-11-20T10:00:01Z'),
    ...overrides,
  };
}

export function openOrderOn(tableIds: string[], overrides: Partial<Order> = {}): Order {
  return {
    id: 'o-1',
    locationId: 'loc-1',
    tableIds,
    covers: 2,
    spendMinor: 0,
    currency: 'EUR',
    status: 'open',
    reservationExternalId: null,
    check: makeCheck(EMPTY_LINES),
    serviceStatus: null,
    openedAt: at('2026-11-21T19:00:00Z'),
    closedAt: null,
    ...overrides,
  };
}

export function table(overrides: Partial<Table> = {}): Table {
  return {
    id: 't-1',
    roomId: 'room-1',
    externalId: 'ext-t-1',
    label: 'T1',
    shape: 'round',
    seatCount: 4,
    minCovers: 1,
    maxCovers: 4,
    active: true,
    x: 100,
    y: 100,
    rotation: 0,
    ...overrides,
  };
}

export function room(overrides: Partial<Room> = {}): Room {
  return {
    id: 'room-1',
    externalId: 'ext-room-1',
    name: 'Main',
    order: 0,
    canvasWidth: 1000,
    canvasHeight: 1000,
    decorations: [],
    tables: [table()],
    ...overrides,
  };
}

export function workingPlan(overrides: Partial<WorkingPlan> = {}): WorkingPlan {
  return {
    locationId: 'loc-1',
    status: 'empty',
    publishedVersion: null,
    publishedAt: null,
    rooms: [],
    ...overrides,
  };
}

/** Deterministic id source: `id-1`, `id-2`, ... */
export function sequentialIds(prefix = 'id'): () => string {
  let n = 0;
  return () => `${prefix}-${++n}`;
}
