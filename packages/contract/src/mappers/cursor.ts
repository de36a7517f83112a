import { Instant, type DeliveryCursor, type ReservationCursor } from '@pis/domain';
import { invalid, valid, type Checked } from '../validation/checked';

/**
 * Cursors are opaque to clients: base64url of a small JSON keyset position, tagged with the
 * listing it belongs to so one listing's cursor is refused by another. Instants travel as
 * epoch microseconds, so a page boundary is exact.
 */
type Position = { k: 'r' | 'd'; t: string; i: string };

export function encodeReservationCursor(cursor: ReservationCursor): string {
  return encode({ k: 'r', t: cursor.startsAt.epochMicros.toString(), i: cursor.id });
}

export function decodeReservationCursor(text: string): Checked<ReservationCursor> {
  const p = decode(text, 'r');
  return p ? valid({ startsAt: Instant.fromEpochMicros(BigInt(p.t)), id: p.i }) : malformed();
}

export function encodeDeliveryCursor(cursor: DeliveryCursor): string {
  return encode({ k: 'd', t: cursor.createdAt.epochMicros.toString(), i: cursor.id });
}

export function decodeDeliveryCursor(text: string): Checked<DeliveryCursor> {
  const p = decode(text, 'd');
  return p ? valid({ createdAt: Instant.fromEpochMicros(BigInt(p.t)), id: p.i }) : malformed();
}

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
