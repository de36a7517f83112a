import type { Instant } from '../kernel/instant';
import { fail, ok, type Outcome, type ValidationDetail } from '../kernel/outcome';
import { sameIdSet } from '../kernel/id-set';
import type { Reservation, ReservationInput } from './reservation';

/**
 * Rules of the write itself that need no stored state: checked with the body, before
 * existence (docs/reference/errors.md#check-order: the body answers first).
 */
export function checkReservationInput(input: ReservationInput, pathExternalId?: string): Outcome<void> {
  const details: ValidationDetail[] = [];
  if (pathExternalId !== undefined && input.externalId !== pathExternalId) {
    details.push({ path: '/externalId', message: 'must equal the externalId in the path' });
  }
  if (input.status === 'seated' && input.tableIds.length === 0) {
    details.push({ path: '/tableIds', message: 'a seated reservation needs at least one table' });
  }
  const seen = new Set<string>();
  input.tableIds.forEach((id, index) => {
    if (seen.has(id)) details.push({ path: `/tableIds/${index}`, message: `duplicate table id ${id}` });
    seen.add(id);
  });
  return details.length === 0 ? ok(undefined) : fail('validation_failed', details[0]!.message, details);
}

/**
 * What a seated write asks of the till order:
 * - `open`: the reservation has no linked order, so one opens on its tables;
 * - `follow`: the reservation has a linked order and the write changes its seating, so the
 *   order (when still open) moves to `tableIds` and takes `covers`;
 * - `none`: the order, if any, is left where the till has it.
 */
export type OrderIntent =
  | { kind: 'none' }
  | { kind: 'open'; tableIds: string[]; covers: number }
  | { kind: 'follow'; orderId: string; tableIds: string[]; covers: number };

export type ReservationWriteDecision =
  { kind: 'stale'; stored: Reservation } | { kind: 'apply'; next: Reservation; orderIntent: OrderIntent };

export interface WriteContext {
  /** When the service received the write; becomes `receivedAt`. */
  now: Instant;
  /** The id a new reservation gets (ignored when one is stored). */
  newId: string;
  locationId: string;
}

/**
 * A write that names no tables and does not seat touches nothing but the reservation: no
 * table check, no order, no event. Such writes may take the one-statement path
 * (`PlainReservationWrites`), which decides exactly as `decideReservationWrite` does.
 */
export function canCreateInOneStatement(input: ReservationInput): boolean {
  return canUpdateInOneStatement(input) && input.tableIds.length === 0;
}

/**
 * A write whose status is not `seated` never opens, moves or changes a till order and causes no
 * event (docs/reference/provider-api.md#moving-and-covers): its only check beyond last-write-wins
 * is its table ids against the published plan. Such updates may take the one-statement path
 * (`PlainReservationWrites.update`) too.
 */
export function canUpdateInOneStatement(input: ReservationInput): boolean {
  return input.status !== 'seated';
}

/** Older **or equal** `updatedAt` loses: a blind retry of an applied write is stale. */
export function isStale(stored: Reservation, incoming: ReservationInput): boolean {
  return !incoming.updatedAt.isAfter(stored.updatedAt);
}

/**
 * Last-write-wins decision for one write against the stored reservation (null: none yet).
 * Pure: the caller has already checked the body, existence and (after this) tables and
 * occupancy. The PostgreSQL adapter enforces the same rule atomically.
 */
export function decideReservationWrite(
  stored: Reservation | null,
  incoming: ReservationInput,
  ctx: WriteContext,
): ReservationWriteDecision {
  if (stored !== null && isStale(stored, incoming)) return { kind: 'stale', stored };
  const next: Reservation = {
    ...incoming,
    id: stored?.id ?? ctx.newId,
    locationId: stored?.locationId ?? ctx.locationId,
    linkedOrderId: stored?.linkedOrderId ?? null,
    arrivedAt: stored?.arrivedAt ?? (hasArrived(incoming) ? ctx.now : null),
    receivedAt: ctx.now,
  };
  return { kind: 'apply', next, orderIntent: orderIntentOf(stored, incoming) };
}

function hasArrived(input: ReservationInput): boolean {
  return input.status === 'arrived' || input.status === 'seated';
}

/**
 * Only a write with status `seated` ever touches an order. With a linked order, the write
 * re-asserts its seating only when it changes it (the stored reservation was not seated,
 * or its table set or covers differ), so a till-side move is not undone by an unrelated
 * edit of the reservation.
 */
function orderIntentOf(stored: Reservation | null, incoming: ReservationInput): OrderIntent {
  if (incoming.status !== 'seated') return { kind: 'none' };
  const { tableIds, covers } = incoming;
  if (stored === null || stored.linkedOrderId === null) return { kind: 'open', tableIds, covers };
  const changesSeating =
    stored.status !== 'seated' || stored.covers !== covers || !sameIdSet(stored.tableIds, tableIds);
  return changesSeating
    ? { kind: 'follow', orderId: stored.linkedOrderId, tableIds, covers }
    : { kind: 'none' };
}
