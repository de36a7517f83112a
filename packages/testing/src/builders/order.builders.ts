import { randomUUID } from 'node:crypto';
import type { Order } from '@pis/domain';
import { at } from './instants';

/** An open walk-in order record on `tableIds`, for port-level tests. */
export function anOrder(locationId: string, tableIds: string[], overrides: Partial<Order> = {}): Order {
  return {
    id: randomUUID(),
    locationId,
    tableIds,
    covers: 2,
    spendMinor: 0,
    currency: 'EUR',
    status: 'open',
    reservationExternalId: null,
    items: [],
    openedAt: at('2026-11-21T19:00:00.123456Z'),
    closedAt: null,
    ...overrides,
  };
}
