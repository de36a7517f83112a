import { at, reservationInput, storedReservation } from '../../test/builders';
import type { Reservation, ReservationInput, ReservationStatus } from './reservation';
import { RESERVATION_STATUSES } from './reservation';
import {
  checkReservationInput,
  decideReservationWrite,
  isStale,
  type OrderIntent,
  type WriteContext,
} from './reservation-write';

const NOW = at('2026-11-21T19:05:00Z');
const ctx: WriteContext = { now: NOW, newId: 'res-new', locationId: 'loc-1' };

function applied(stored: Reservation | null, incoming: ReservationInput, context: WriteContext = ctx) {
  const decision = decideReservationWrite(stored, incoming, context);
  if (decision.kind !== 'apply') throw new Error(`expected apply, got ${decision.kind}`);
  return decision;
}

describe('checkReservationInput', () => {
  it.each<[string, Partial<ReservationInput>, string | undefined, string[]]>([
    ['the body externalId differs from the path one', { externalId: 'r-1' }, 'r-2', ['/externalId']],
    ['the body externalId equals the path one', { externalId: 'r-1' }, 'r-1', []],
    ['no path externalId is given (a create)', { externalId: 'anything' }, undefined, []],
    ['a seated write has no tables', { status: 'seated', tableIds: [] }, undefined, ['/tableIds']],
    ['a seated write has one table', { status: 'seated', tableIds: ['t-1'] }, undefined, []],
    ['a booked write has no tables', { status: 'booked', tableIds: [] }, undefined, []],
    ['a table id repeats', { tableIds: ['t-1', 't-2', 't-1'] }, undefined, ['/tableIds/2']],
    [
      'a table id appears three times',
      { tableIds: ['t-1', 't-1', 't-1'] },
      undefined,
      ['/tableIds/1', '/tableIds/2'],
    ],
    [
      'several rules fail at once',
      { externalId: 'r-1', status: 'seated', tableIds: [] },
      'r-9',
      ['/externalId', '/tableIds'],
    ],
  ])('When %s, then the details name %j', (_case, overrides, pathExternalId, paths) => {
    const outcome = checkReservationInput(reservationInput(overrides), pathExternalId);

    if (paths.length === 0) {
      expect(outcome).toEqual({ ok: true, value: undefined });
      return;
    }
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.code).toBe('validation_failed');
    expect(outcome.occupiedBy).toBeNull();
    expect(outcome.details?.map((d) => d.path)).toEqual(paths);
    expect(outcome.message).toBe(outcome.details?.[0]?.message);
  });
});

describe('isStale', () => {
  const stored = storedReservation({ updatedAt: at('2026-11-20T10:00:00.000005Z') });

  it.each([
    ['older by a day', '2026-11-19T10:00:00.000005Z', true],
    ['older by one microsecond', '2026-11-20T10:00:00.000004Z', true],
    ['equal', '2026-11-20T10:00:00.000005Z', true],
    ['equal, written with another offset', '2026-11-20T11:00:00.000005+01:00', true],
    ['newer only below the microsecond (truncated, so equal)', '2026-11-20T10:00:00.0000059Z', true],
    ['newer by one microsecond', '2026-11-20T10:00:00.000006Z', false],
    ['newer by a day', '2026-11-21T10:00:00Z', false],
  ])('When the incoming updatedAt is %s, then stale is %s', (_case, updatedAt, stale) => {
    expect(isStale(stored, reservationInput({ updatedAt: at(updatedAt) }))).toBe(stale);
  });
});

describe('decideReservationWrite: last-write-wins', () => {
  const stored = storedReservation({ updatedAt: at('2026-11-20T10:00:00Z') });

  it.each([
    ['older', '2026-11-20T09:59:59.999999Z'],
    ['equal', '2026-11-20T10:00:00Z'],
  ])(
    'When the write is %s than the stored one, then it is stale and carries the stored reservation',
    (_c, ts) => {
      const decision = decideReservationWrite(
        stored,
        reservationInput({ updatedAt: at(ts), covers: 9 }),
        ctx,
      );

      expect(decision).toEqual({ kind: 'stale', stored });
      expect(decision.kind === 'stale' && decision.stored).toBe(stored);
    },
  );

  it('When the write is one microsecond newer, then it is applied', () => {
    const decision = decideReservationWrite(
      stored,
      reservationInput({ updatedAt: at('2026-11-20T10:00:00.000001Z') }),
      ctx,
    );

    expect(decision.kind).toBe('apply');
  });

  it('When nothing is stored, then the reservation gets the new id and the location', () => {
    const { next } = applied(null, reservationInput());

    expect(next.id).toBe('res-new');
    expect(next.locationId).toBe('loc-1');
    expect(next.linkedOrderId).toBeNull();
  });

  it('When a reservation is stored, then its id and location are kept', () => {
    const { next } = applied(
      storedReservation({ id: 'res-old', locationId: 'loc-old' }),
      reservationInput({ updatedAt: at('2026-11-21T00:00:00Z') }),
      { now: NOW, newId: 'res-other', locationId: 'loc-other' },
    );

    expect(next.id).toBe('res-old');
    expect(next.locationId).toBe('loc-old');
  });

  it.each([
    ['a create', null],
    ['an update', storedReservation({ receivedAt: at('2026-11-01T00:00:00Z') })],
  ])('When %s is applied, then receivedAt is now', (_case, current) => {
    const { next } = applied(current, reservationInput({ updatedAt: at('2026-11-21T00:00:00Z') }));

    expect(next.receivedAt).toBe(NOW);
  });

  it('When a reservation with a linked order is updated with any status, then linkedOrderId is kept', () => {
    const { next } = applied(
      storedReservation({ status: 'seated', tableIds: ['t-1'], linkedOrderId: 'o-1' }),
      reservationInput({ status: 'cancelled', updatedAt: at('2026-11-21T00:00:00Z') }),
    );

    expect(next.linkedOrderId).toBe('o-1');
  });

  it('When a write is applied, then every request field is the body one, posOrderId included', () => {
    const current = storedReservation({
      partyName: 'Old',
      internalNote: 'old note',
      posOrderId: 'pos-old',
      endsAt: at('2026-11-21T21:00:00Z'),
      tableIds: ['t-1'],
      guest: null,
      prepayment: { prepaidMinor: 100, currency: 'EUR', items: [], imprint: null },
    });
    const incoming: ReservationInput = {
      externalId: 'r-1',
      status: 'confirmed',
      partyName: 'New',
      covers: 6,
      startsAt: at('2026-11-22T20:00:00Z'),
      endsAt: null,
      tableIds: ['t-2', 't-3'],
      guest: {
        name: 'Ada',
        phone: null,
        email: null,
        vip: true,
        firstVisit: false,
        visitCount: 3,
        occasion: null,
        allergies: 'nuts',
        tags: ['regular'],
        memberSince: at('2020-01-01T00:00:00Z'),
        averageSpendMinor: 5000,
        noShowCount: 0,
        recentVisits: [],
      },
      internalNote: null,
      prepayment: null,
      posOrderId: 'pos-new',
      updatedAt: at('2026-11-21T00:00:00Z'),
    };

    const { next } = applied(current, incoming);

    const requestFields = Object.fromEntries(
      (Object.keys(incoming) as (keyof ReservationInput)[]).map((key) => [key, next[key]]),
    );
    expect(requestFields).toEqual(incoming);
  });

  it('When the body sends posOrderId null over a stored one, then it is cleared (full-body write)', () => {
    const { next } = applied(
      storedReservation({ posOrderId: 'pos-old' }),
      reservationInput({ posOrderId: null, updatedAt: at('2026-11-21T00:00:00Z') }),
    );

    expect(next.posOrderId).toBeNull();
  });
});

describe('decideReservationWrite: arrivedAt', () => {
  const EARLIER = at('2026-11-21T18:55:00Z');
  const newer = at('2026-11-21T00:00:00Z');

  it.each<[string, Reservation | null, ReservationStatus, 'now' | 'earlier' | null]>([
    ['a new reservation arrives', null, 'arrived', 'now'],
    ['a new reservation is seated', null, 'seated', 'now'],
    ['a new reservation is booked', null, 'booked', null],
    ['a new reservation is confirmed', null, 'confirmed', null],
    ['a new reservation is finished', null, 'finished', null],
    ['a new reservation is a no-show', null, 'no_show', null],
    ['a new reservation is cancelled', null, 'cancelled', null],
    ['a booked reservation arrives', storedReservation({ status: 'booked' }), 'arrived', 'now'],
    ['a confirmed reservation is seated', storedReservation({ status: 'confirmed' }), 'seated', 'now'],
    ['a booked reservation is confirmed', storedReservation({ status: 'booked' }), 'confirmed', null],
    ['an arrived reservation arrives again', storedReservation({ arrivedAt: EARLIER }), 'arrived', 'earlier'],
    ['an arrived reservation is seated', storedReservation({ arrivedAt: EARLIER }), 'seated', 'earlier'],
    [
      'an arrived reservation is cancelled',
      storedReservation({ arrivedAt: EARLIER }),
      'cancelled',
      'earlier',
    ],
    [
      'an arrived reservation goes back to booked',
      storedReservation({ arrivedAt: EARLIER }),
      'booked',
      'earlier',
    ],
    ['a seated reservation finishes', storedReservation({ arrivedAt: EARLIER }), 'finished', 'earlier'],
  ])('When %s, then arrivedAt is %s', (_case, current, status, expected) => {
    const tableIds = status === 'seated' ? ['t-1'] : [];

    const { next } = applied(current, reservationInput({ status, tableIds, updatedAt: newer }));

    const want = expected === 'now' ? NOW : expected === 'earlier' ? EARLIER : null;
    expect(next.arrivedAt).toBe(want);
  });
});

describe('decideReservationWrite: order intent', () => {
  const newer = at('2026-11-21T00:00:00Z');
  const seatedWithOrder = storedReservation({
    status: 'seated',
    tableIds: ['t-1', 't-2'],
    covers: 4,
    linkedOrderId: 'o-1',
  });
  const follow = (tableIds: string[], covers: number): OrderIntent => ({
    kind: 'follow',
    orderId: 'o-1',
    tableIds,
    covers,
  });

  it.each(RESERVATION_STATUSES.filter((s) => s !== 'seated'))(
    'When the write has status %s, then the order is never touched, whatever its tables and covers',
    (status) => {
      for (const current of [null, storedReservation(), seatedWithOrder]) {
        const { orderIntent } = applied(
          current,
          reservationInput({ status, tableIds: ['t-7', 't-8'], covers: 12, updatedAt: newer }),
        );
        expect(orderIntent).toEqual({ kind: 'none' });
      }
    },
  );

  it.each<[string, Reservation | null, string[], number, OrderIntent]>([
    ['a new reservation is seated', null, ['t-1'], 3, { kind: 'open', tableIds: ['t-1'], covers: 3 }],
    [
      'an arrived reservation without an order is seated',
      storedReservation({ status: 'arrived', tableIds: ['t-1'] }),
      ['t-1', 't-2'],
      4,
      { kind: 'open', tableIds: ['t-1', 't-2'], covers: 4 },
    ],
    [
      'a seated reservation without an order is written seated again',
      storedReservation({ status: 'seated', tableIds: ['t-1'], covers: 2 }),
      ['t-1'],
      2,
      { kind: 'open', tableIds: ['t-1'], covers: 2 },
    ],
    [
      'a seated reservation keeps its tables and covers',
      seatedWithOrder,
      ['t-1', 't-2'],
      4,
      { kind: 'none' },
    ],
    [
      'a seated reservation lists the same tables in another order',
      seatedWithOrder,
      ['t-2', 't-1'],
      4,
      { kind: 'none' },
    ],
    ['a seated reservation moves to other tables', seatedWithOrder, ['t-3'], 4, follow(['t-3'], 4)],
    ['a seated reservation drops one of its tables', seatedWithOrder, ['t-1'], 4, follow(['t-1'], 4)],
    [
      'a seated reservation adds a table',
      seatedWithOrder,
      ['t-1', 't-2', 't-3'],
      4,
      follow(['t-1', 't-2', 't-3'], 4),
    ],
    [
      'a seated reservation changes its covers',
      seatedWithOrder,
      ['t-1', 't-2'],
      5,
      follow(['t-1', 't-2'], 5),
    ],
    [
      'a reservation with an order, stored as arrived, is seated on the same tables',
      { ...seatedWithOrder, status: 'arrived' },
      ['t-1', 't-2'],
      4,
      follow(['t-1', 't-2'], 4),
    ],
    [
      'a finished reservation with an order is seated again',
      { ...seatedWithOrder, status: 'finished' },
      ['t-1', 't-2'],
      4,
      follow(['t-1', 't-2'], 4),
    ],
  ])('When %s, then the order intent is as listed', (_case, current, tableIds, covers, intent) => {
    const { orderIntent } = applied(
      current,
      reservationInput({ status: 'seated', tableIds, covers, updatedAt: newer }),
    );

    expect(orderIntent).toEqual(intent);
  });

  it('When the write is stale, then there is no order intent at all', () => {
    const decision = decideReservationWrite(
      seatedWithOrder,
      reservationInput({ status: 'seated', tableIds: ['t-9'], updatedAt: seatedWithOrder.updatedAt }),
      ctx,
    );

    expect(decision).not.toHaveProperty('orderIntent');
  });
});

describe('decideReservationWrite: purity', () => {
  it('When a write is decided, then neither the stored reservation nor the body is changed', () => {
    const current = storedReservation({ status: 'seated', tableIds: ['t-1'], linkedOrderId: 'o-1' });
    const incoming = reservationInput({
      status: 'seated',
      tableIds: ['t-2'],
      updatedAt: at('2026-11-21T00:00:00Z'),
    });
    const before = JSON.stringify([current, incoming]);

    decideReservationWrite(current, incoming, ctx);

    expect(JSON.stringify([current, incoming])).toBe(before);
  });
});
