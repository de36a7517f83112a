import {
  Instant,
  type ConnectionCursor,
  type DeliveryCursor,
  type NewestFirstCursor,
  type ReservationCursor,
} from '@pis/domain';
import { invalid, valid, type Checked } from '../validation/checked';

/**
 * Cursors are opaque to clients: base64url of a small JSON keyset position, tagged with the
 * listing it belongs to so one listing's cursor is refused by another. Instants travel as
 * epoch microseconds, so a page boundary is exact.
 */
type Kind = 'r' | 'd' | 'p' | 'l' | 'c';
type Position = { k: Kind; t: string; i: string };

/** A listing's cursor codec: an instant and an id, under the listing's tag. */
function codec<C>(kind: Kind, write: (cursor: C) => [Instant, string], read: (at: Instant, id: string) => C) {
  return {
    encode: (cursor: C): string => {
      const [at, id] = write(cursor);
      return encode({ k: kind, t: at.epochMicros.toString(), i: id });
    },
    decode: (text: string): Checked<C> => {
      const p = decode(text, kind);
      return p ? valid(read(Instant.fromEpochMicros(BigInt(p.t)), p.i)) : malformed();
    },
  };
}

const reservations = codec<ReservationCursor>(
  'r',
  (c) => [c.startsAt, c.id],
  (startsAt, id) => ({ startsAt, id }),
);
const deliveries = codec<DeliveryCursor>(
  'd',
  (c) => [c.createdAt, c.id],
  (createdAt, id) => ({ createdAt, id }),
);
const newestFirst = (kind: 'p' | 'l') =>
  codec<NewestFirstCursor>(
    kind,
    (c) => [c.createdAt, c.id],
    (createdAt, id) => ({ createdAt, id }),
  );
const providers = newestFirst('p');
const locations = newestFirst('l');
const connections = codec<ConnectionCursor>(
  'c',
  (c) => [c.grantedAt, c.locationId],
  (grantedAt, locationId) => ({ grantedAt, locationId }),
);

export const encodeReservationCursor = reservations.encode;
export const decodeReservationCursor = reservations.decode;
export const encodeDeliveryCursor = deliveries.encode;
export const decodeDeliveryCursor = deliveries.decode;
export const encodeProviderCursor = providers.encode;
export const decodeProviderCursor = providers.decode;
export const encodeLocationCursor = locations.encode;
export const decodeLocationCursor = locations.decode;
export const encodeConnectionCursor = connections.encode;
export const decodeConnectionCursor = connections.decode;

const encode = (position: Position) => Buffer.from(JSON.stringify(position), 'utf8').toString('base64url');

function decode(text: string, kind: Position['k']): Position | null {
  if (!/^[A-Za-z0-9_-]+$/.test(text)) return null;
  try {
    const p = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as Partial<Position> | null;
    const ok =
      typeof p === 'object' &&
      p !== null &&
      p.k === kind &&
      typeof p.t === 'string' &&
      /^-?\d{1,20}$/.test(p.t) &&
      Instant.isRepresentable(BigInt(p.t)) &&
      typeof p.i === 'string' &&
      p.i.length > 0 &&
      Object.keys(p).length === 3;
    return ok ? (p as Position) : null;
  } catch {
    return null;
  }
}

const malformed = <T>() =>
  invalid<T>([
    { path: '/cursor', message: 'is not a cursor this listing issued; pass nextCursor as it was' },
  ]);
