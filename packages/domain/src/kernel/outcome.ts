/** Stable codes of the contract. Adapters map them to transport statuses; the domain never knows those. */
export const ERROR_CODES = [
  'unauthorized',
  'unknown_reservation',
  'duplicate_reservation',
  'unknown_table_id',
  'table_occupied',
  'floorplan_not_published',
  'draft_not_empty',
  'validation_failed',
  'not_found',
  'order_closed',
  'events_expired',
  'location_required',
  'location_not_granted',
  'endpoint_limit',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export interface OccupiedBy {
  orderId: string | null;
  reservationExternalId: string | null;
}

export interface ValidationDetail {
  /** JSON Pointer into the request body, e.g. `/tableIds/1`. */
  path: string;
  message: string;
}

export interface Failure {
  readonly ok: false;
  readonly code: ErrorCode;
  readonly message: string;
  readonly occupiedBy: OccupiedBy | null;
  readonly details?: ValidationDetail[];
}

export interface Success<T> {
  readonly ok: true;
  readonly value: T;
}

/** Expected outcomes are values; broken invariants are thrown. */
export type Outcome<T> = Success<T> | Failure;

export const ok = <T>(value: T): Success<T> => ({ ok: true, value });

export const fail = (
  code: Exclude<ErrorCode, 'table_occupied'>,
  message: string,
  details?: ValidationDetail[],
): Failure =>
  details
    ? { ok: false, code, message, occupiedBy: null, details }
    : { ok: false, code, message, occupiedBy: null };

export const occupied = (message: string, occupiedBy: OccupiedBy): Failure => ({
  ok: false,
  code: 'table_occupied',
  message,
  occupiedBy,
});
