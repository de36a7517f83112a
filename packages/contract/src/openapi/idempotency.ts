import type { ErrorStatus, OperationSpec } from './operation-spec';

/** Every POST takes an `Idempotency-Key` (docs/reference/limits-and-formats.md#idempotency-keys). */
export const takesIdempotencyKey = (op: Pick<OperationSpec, 'method'>): boolean => op.method === 'post';

export const idempotencyKeyParameter = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description:
    'Makes a retry of this request safe: 1 to 255 printable ASCII characters, unique per request (a UUID does). ' +
    "The first request's status and body are kept for 24 hours per key, credential and location; the same key " +
    'with the same method, path and body answers them again with `Idempotent-Replayed: true` and changes nothing. ' +
    'The same key with another request is 422 `idempotency_key_reused`; while the first still runs, 409 ' +
    '`idempotency_in_progress`. A 5xx answer is not kept: retry it with the same key. Without the header the ' +
    'request runs as always.',
  schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x20-\\x7E]+$' },
} as const;

/** Statuses no kept answer can have: they are answered before the key is looked at, or never kept. */
const NEVER_REPLAYED = new Set([400, 401, 403, 413, 415, 429, 500, 503]);

/** Whether an answer of this status to a POST may be a replay (and so carry `Idempotent-Replayed`). */
export const replayable = (status: number): boolean => !NEVER_REPLAYED.has(status);

const IN_PROGRESS = 'idempotency_in_progress: the first request with this Idempotency-Key is still running';
const REUSED =
  'idempotency_key_reused: this Idempotency-Key was used for a different request; validation_failed: an Idempotency-Key that is empty, longer than 255 characters or not printable ASCII';

/** A POST's error statuses with the two the `Idempotency-Key` adds. */
export function withIdempotencyErrors(errors: OperationSpec['errors']): Partial<Record<ErrorStatus, string>> {
  const add = (status: ErrorStatus, text: string) => (errors[status] ? `${errors[status]}; ${text}` : text);
  return { ...errors, 409: add(409, IN_PROGRESS), 422: add(422, REUSED) };
}
