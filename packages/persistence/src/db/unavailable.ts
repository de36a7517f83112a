import { ServiceUnavailableError } from '@pis/domain';
import { QueryRunnerAlreadyReleasedError, TypeORMError } from 'typeorm';

/*
 * The one place that tells "the database is unreachable" from "the statement failed".
 * PostgreSQL and Node say it with codes; `pg` and `pg-pool` say some of it only in the
 * message of a plain Error, so those messages are matched here and nowhere else, pinned by
 * `test/unavailable.spec.ts` against the real driver.
 */

/** SQLSTATE classes and Node socket codes of a server that is down, restarting or full. */
const UNAVAILABLE_CODES =
  /^(08...|57P0[1-3]|53300|ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|ENOTFOUND|EAI_AGAIN)$/;

/** `pg` (client ended or lost its socket) and `pg-pool` (connect timeout, pool closed). */
const DRIVER_MESSAGES =
  /^(Connection terminated( unexpectedly)?|Client has encountered a connection error and is not queryable|timeout exceeded when trying to connect|Cannot use a pool after calling end on the pool)$/;

/** TypeORM's postgres driver when its pool is gone (the DataSource was destroyed). */
const DRIVER_NOT_CONNECTED = 'Driver not Connected';

export function isConnectionFailure(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  // TypeORM releases a query runner whose connection reported an error, so a transaction
  // whose session ended between two statements fails with this on its next one.
  if (error instanceof QueryRunnerAlreadyReleasedError) return true;
  if (error instanceof TypeORMError && error.message === DRIVER_NOT_CONNECTED) return true;
  const e = error as { code?: unknown; message?: unknown; driverError?: unknown; errors?: unknown };
  if (typeof e.code === 'string' && UNAVAILABLE_CODES.test(e.code)) return true;
  if (error instanceof Error && error.constructor === Error && DRIVER_MESSAGES.test(error.message))
    return true;
  // Node's connect to `localhost` tries ::1 and 127.0.0.1 and reports both in an AggregateError.
  if (Array.isArray(e.errors) && e.errors.length > 0 && e.errors.every(isConnectionFailure)) return true;
  return e.driverError !== undefined && isConnectionFailure(e.driverError);
}

/** `error` as a `ServiceUnavailableError` when the database could not be reached, else as it is. */
export function unavailableOr(error: unknown): unknown {
  if (error instanceof ServiceUnavailableError || !isConnectionFailure(error)) return error;
  return new ServiceUnavailableError('database', 'the database is unavailable', { cause: error });
}

/** Runs `work`, raising `ServiceUnavailableError` for a database that could not be reached. */
export async function orUnavailable<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw unavailableOr(error);
  }
}
