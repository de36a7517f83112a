import fc from 'fast-check';
import { eventVisibleTo, providerReader, VENUE, visibleTo } from './visibility';

const named = (reservationExternalId: string | null) => ({
  orderId: 'o-1',
  reservationExternalId,
  covers: 2,
});

describe('visibleTo', () => {
  it.each([
    ['the owner', providerReader('p-1'), 'p-1', 'r-1'],
    ['another provider', providerReader('p-2'), 'p-1', null],
    ['the venue', VENUE, 'p-1', 'r-1'],
    ['a provider, when the owner is not known', providerReader('p-1'), undefined, null],
    ['the venue, when the owner is not known', VENUE, undefined, 'r-1'],
  ] as const)('When %s reads a reservation’s order, then its id reads %s', (_c, reader, owner, seen) => {
    expect(visibleTo(reader, owner, named('r-1'))).toEqual({
      orderId: 'o-1',
      reservationExternalId: seen,
      covers: 2,
    });
  });

  it('When nothing is hidden, then the very same value comes back; when something is, the value given is left as it was', () => {
    const value = named('r-1');

    expect(visibleTo(providerReader('p-1'), 'p-1', value)).toBe(value);
    expect(visibleTo(providerReader('p-2'), 'p-1', value)).not.toBe(value);
    expect(value.reservationExternalId).toBe('r-1');
  });

  it('When a value names no reservation (a walk-in, or no such field), then every reader sees it as it is', () => {
    const walkIn = named(null);
    const published = { version: 2, publishedAt: '2026-11-21T19:00:00.000Z' };

    expect(visibleTo(providerReader('p-9'), 'p-1', walkIn)).toBe(walkIn);
    expect(visibleTo(providerReader('p-9'), undefined, published)).toBe(published);
  });

  it('When any reader reads any value, then only reservationExternalId may change, and it is the id or null', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('p-1', 'p-2', 'venue'),
        fc.option(fc.constantFrom('p-1', 'p-2'), { nil: undefined }),
        fc.option(fc.string(), { nil: null }),
        (who, owner, id) => {
          const reader = who === 'venue' ? VENUE : providerReader(who);
          const seen = visibleTo(reader, owner, named(id));
          const { reservationExternalId, ...rest } = seen;
          const mayKnow = id !== null && (reader === VENUE || owner === who);
          expect(rest).toEqual({ orderId: 'o-1', covers: 2 });
          expect(reservationExternalId).toBe(mayKnow ? id : null);
        },
      ),
    );
  });
});

describe('eventVisibleTo', () => {
  const event = {
    id: 'e-1',
    type: 'table.occupied' as const,
    sequence: 7,
    reservationProviderId: 'p-1',
    data: { tableId: 't-1', orderId: 'o-1', reservationExternalId: 'r-1' },
  };

  it('When another provider reads an event, then only data.reservationExternalId differs: id, type, sequence and owner stay', () => {
    expect(eventVisibleTo(providerReader('p-2'), event)).toEqual({
      ...event,
      data: { ...event.data, reservationExternalId: null },
    });
    expect(eventVisibleTo(providerReader('p-1'), event)).toBe(event);
  });
});
