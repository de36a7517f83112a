// How a till team tests its own code against the service's rules. In the till's repository
// the first import reads `from '@pis/testing'`; inside this package it is the source itself.
import {
  addOrderItem,
  createReservation,
  finishOrderAs,
  moveOrderToTables,
  openWalkInOrder,
  updateReservation,
  type Deps,
  type ReservationInput,
} from '@pis/domain';
import {
  aReservationInput,
  at,
  createInMemoryDeps,
  expectOk,
  givenPublishedLocation,
  toWebhookBody,
  type WebhookBody,
} from '../index';

/**
 * The till team's own code under test: the floor display fed by our webhooks. It must
 * survive at-least-once delivery (duplicates) by remembering the last sequence it applied.
 */
class FloorDisplay {
  private lastSequence = 0;
  readonly taken = new Map<string, { orderId: string; party: string }>();
  readonly spend = new Map<string, number>();

  receive(body: WebhookBody): void {
    if (body.data.locationEventSequence <= this.lastSequence) return;
    this.lastSequence = body.data.locationEventSequence;
    switch (body.type) {
      case 'table.occupied':
        this.taken.set(body.data.tableId, {
          orderId: body.data.orderId,
          party: body.data.reservationExternalId ?? 'walk-in',
        });
        break;
      case 'table.freed':
        this.taken.delete(body.data.tableId);
        break;
      case 'table.spend_updated':
        this.spend.set(body.data.orderId, body.data.spendMinor);
        break;
      case 'floorplan.published':
        break;
    }
  }
}

describe('till team example: a service evening on the in-memory service', () => {
  async function anEvening() {
    const { deps, store, clock } = createInMemoryDeps({ now: '2026-11-21T18:00:00Z' });
    const place = await givenPublishedLocation(deps, { tables: 6 });
    const [a1, a2, a3, a4] = place.tableIds as [string, string, string, string];
    const display = new FloorDisplay();
    let delivered = 0;
    /** Hands every new event to the display, as the webhook worker would. */
    const deliver = () => {
      const events = store.events(place.locationId).slice(delivered);
      delivered += events.length;
      const bodies = events.map(toWebhookBody);
      bodies.forEach((body) => display.receive(body));
      return bodies;
    };
    deliver();
    return { deps, clock, locationId: place.locationId, a1, a2, a3, a4, display, deliver, store };
  }

  it('When a walk-in opens, a reservation is seated, the walk-in moves, items are added and the bill is paid, then the display follows every step', async () => {
    const { deps, clock, locationId, a1, a2, a3, a4, display, deliver } = await anEvening();

    // 18:05 a couple walks in and sits at A1.
    clock.set('2026-11-21T18:05:00Z');
    const walkIn = expectOk(await openWalkInOrder(deps, { locationId, tableIds: [a1], covers: 2 }));
    expect(deliver()).toEqual([
      {
        type: 'table.occupied',
        timestamp: '2026-11-21T18:05:00.000Z',
        data: {
          tableId: a1,
          orderId: walkIn.id,
          reservationExternalId: null,
          covers: 2,
          occurredAt: '2026-11-21T18:05:00.000Z',
          locationEventSequence: 2,
        },
      },
    ]);

    // 19:00 the booking system seats OT-1001 at A2 and A3.
    clock.set('2026-11-21T19:00:00Z');
    const booking = aReservationInput({
      externalId: 'OT-1001',
      covers: 6,
      startsAt: at('2026-11-21T19:00:00Z'),
    });
    const seated = await seat(deps, locationId, booking, [a2, a3]);
    expect(deliver()).toMatchObject([
      { type: 'table.occupied', data: { tableId: a2, reservationExternalId: 'OT-1001', covers: 6 } },
      { type: 'table.occupied', data: { tableId: a3, reservationExternalId: 'OT-1001', covers: 6 } },
    ]);

    // 19:10 the walk-in asks for a quieter table: the till moves it from A1 to A4.
    clock.set('2026-11-21T19:10:00Z');
    expectOk(await moveOrderToTables(deps, { locationId, orderId: walkIn.id, tableIds: [a4] }));
    expect(deliver()).toMatchObject([
      { type: 'table.freed', data: { tableId: a1, orderId: walkIn.id, reason: 'moved' } },
      { type: 'table.occupied', data: { tableId: a4, orderId: walkIn.id, reservationExternalId: null } },
    ]);

    // 19:30 the party orders; 21:00 they pay.
    clock.set('2026-11-21T19:30:00Z');
    expectOk(
      await addOrderItem(deps, {
        locationId,
        orderId: seated,
        label: 'Tasting menu',
        amountMinor: 8500,
        quantity: 6,
      }),
    );
    clock.set('2026-11-21T21:00:00Z');
    expectOk(await finishOrderAs(deps, { locationId, orderId: seated, how: 'closed' }));
    const last = deliver();
    expect(last.map((b) => b.type)).toEqual([
      'table.spend_updated',
      'table.freed',
      'table.freed',
      'order.closed',
    ]);
    expect(last[1]).toMatchObject({
      data: { reason: 'closed', reservationExternalId: 'OT-1001', occurredAt: '2026-11-21T21:00:00.000Z' },
    });

    expect(Object.fromEntries(display.taken)).toEqual({ [a4]: { orderId: walkIn.id, party: 'walk-in' } });
    expect(display.spend.get(seated)).toBe(51_000);
  });

  it('When the booking system seats a party at a table the till has taken, then it is refused naming the walk-in, and the display does not change', async () => {
    const { deps, locationId, a1, display, deliver } = await anEvening();
    const walkIn = expectOk(await openWalkInOrder(deps, { locationId, tableIds: [a1], covers: 2 }));
    deliver();
    const booking = aReservationInput({ externalId: 'OT-2002' });
    expectOk(await createReservation(deps, { locationId, input: booking }));

    const refused = await updateReservation(deps, {
      locationId,
      externalId: 'OT-2002',
      input: { ...booking, status: 'seated', tableIds: [a1], updatedAt: at('2026-11-20T10:05:00Z') },
    });

    expect(refused).toMatchObject({
      ok: false,
      code: 'table_occupied',
      occupiedBy: { orderId: walkIn.id, reservationExternalId: null },
    });
    expect(deliver()).toEqual([]);
    expect(display.taken.get(a1)).toEqual({ orderId: walkIn.id, party: 'walk-in' });
  });

  it('When webhooks arrive twice (at-least-once delivery), then the display applies each event once', async () => {
    const { deps, locationId, a1, display, store } = await anEvening();
    const walkIn = expectOk(await openWalkInOrder(deps, { locationId, tableIds: [a1], covers: 2 }));
    expectOk(await finishOrderAs(deps, { locationId, orderId: walkIn.id, how: 'voided' }));
    const bodies = store.events(locationId).map(toWebhookBody);

    [...bodies, ...bodies].forEach((body) => display.receive(body));

    expect(display.taken.size).toBe(0);
    expect(bodies.map((b) => b.data.locationEventSequence)).toEqual([1, 2, 3]);
  });
});

/** The booking system creates the reservation, then seats it; returns the till order it opened. */
async function seat(deps: Deps, locationId: string, booking: ReservationInput, tableIds: string[]) {
  expectOk(await createReservation(deps, { locationId, input: booking }));
  const result = expectOk(
    await updateReservation(deps, {
      locationId,
      externalId: booking.externalId,
      input: { ...booking, status: 'seated', tableIds, updatedAt: booking.updatedAt.plusMicros(60_000_000n) },
    }),
  );
  return result.reservation.linkedOrderId!;
}
