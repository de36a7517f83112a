import { fail, type Failure, type ValidationDetail } from '@pis/domain';

/** What the edge makes of raw input: the typed value, or every problem found with it. */
export type Checked<T> = { ok: true; value: T } | { ok: false; details: ValidationDetail[] };

export const valid = <T>(value: T): Checked<T> => ({ ok: true, value });
export const invalid = <T = never>(details: ValidationDetail[]): Checked<T> => ({ ok: false, details });

/** A 422 `validation_failed` naming the first problem in its message and listing them all. */
export function validationFailure(details: ValidationDetail[]): Failure {
  const first = details[0];
  const message =
    first === undefined
      ? 'the request is invalid'
      : `the request is invalid: ${first.path || '/'} ${first.message}` +
        (details.length > 1 ? ` (and ${details.length - 1} more)` : '');
  return fail('validation_failed', message, details);
}
