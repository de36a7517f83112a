import { Instant } from '@pis/domain';
import fc from 'fast-check';
import {
  decodeDeliveryCursor,
  decodeReservationCursor,
  encodeDeliveryCursor,
  encodeReservationCursor,
} from './cursor';
import { toDeliveryListCommand, toReservationListCommand } from './list-query.mapper';

const malformed = { ok: false, details: [{ path: '/cursor', message: expect.stringContaining('cursor') }] };

describe('Cursors', () => {
  it('When any reservation position is encoded, then it decodes to the same position and is URL-safe', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: -62_135_596_800_000_000n, max: 253_402_300_799_999_999n }),
        fc.string({ minLength: 1 }),
        (micros, id) => {
          const cursor = encodeReservationCursor({ startsAt: Instant.fromEpochMicros(micros), id });
          expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
          expect(decodeReservationCursor(cursor)).toEqual({
            ok: true,
            value: { startsAt: Instant.fromEpochMicros(micros), id },
          });
        },
      ),
    );
  });

  it('When a delivery position is encoded, then it decodes to the same position', () => {
    const position = { createdAt: Instant.parse('2026-11-21T19:00:00.123456Z')!, id: 'delivery-1' };
    expect(decodeDeliveryCursor(encodeDeliveryCursor(position))).toEqual({ ok: true, value: position });
  });

  it.each([
    ['not base64url', 'a+b/c='],
    ['base64url of non-JSON', Buffer.from('hello').toString('base64url')],
    ['JSON of the wrong shape', Buffer.from('{"k":"r","t":"1"}').toString('base64url')],
    ['a non-numeric time', Buffer.from('{"k":"r","t":"x","i":"a"}').toString('base64url')],
    ['an extra key', Buffer.from('{"k":"r","t":"1","i":"a","x":1}').toString('base64url')],
    ['JSON null', Buffer.from('null').toString('base64url')],
    ['a delivery cursor', encodeDeliveryCursor({ createdAt: Instant.fromEpochMicros(1n), id: 'd' })],
  ])('When a reservation cursor is %s, then it is refused at /cursor', (_, cursor) => {
    expect(decodeReservationCursor(cursor)).toEqual(malformed);
  });
});

describe('List commands', () => {
  it('When the window query has no limit or cursor, then limit 100 and no position are used', () => {
    expect(toReservationListCommand({ from: '2026-11-21T00:00Z', to: '2026-11-22T00:00+01:00' })).toEqual({
      ok: true,
      value: {
        from: Instant.parse('2026-11-21T00:00Z'),
        to: Instant.parse('2026-11-21T23:00Z'),
        limit: 100,
        after: null,
      },
    });
  });

  it('When the window query carries a cursor it was given, then the position is restored', () => {
    const after = { startsAt: Instant.parse('2026-11-21T19:00Z')!, id: 'r-9' };
    const query = {
      from: '2026-11-21T00:00Z',
      to: '2026-11-22T00:00Z',
      limit: 5,
      cursor: encodeReservationCursor(after),
    };
    expect(toReservationListCommand(query)).toEqual({
      ok: true,
      value: expect.objectContaining({ limit: 5, after }),
    });
  });

  it('When the window query carries a malformed cursor, then it is refused at /cursor', () => {
    expect(
      toReservationListCommand({ from: '2026-11-21T00:00Z', to: '2026-11-22T00:00Z', cursor: 'zzz' }),
    ).toEqual(malformed);
  });

  it('When the deliveries query is empty, then every endpoint, every status, limit 100 and no position are used', () => {
    expect(toDeliveryListCommand({})).toEqual({
      ok: true,
      value: { endpointId: null, status: null, limit: 100, after: null },
    });
  });

  it('When the deliveries query carries a reservation cursor, then it is refused at /cursor', () => {
    const cursor = encodeReservationCursor({ startsAt: Instant.fromEpochMicros(0n), id: 'r' });
    expect(toDeliveryListCommand({ status: 'failed', cursor })).toEqual(malformed);
  });
});
