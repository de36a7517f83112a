/**
 * A backing service of a port (the database, the queue) could not be reached or dropped the
 * connection mid-command: nothing is known to be wrong with the request, and the same call
 * may succeed a moment later. Adapters raise it (with the driver's error as `cause`) so that
 * callers branch on the type, never on a driver's message text.
 */
export class ServiceUnavailableError extends Error {
  constructor(
    readonly service: 'database' | 'queue',
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'ServiceUnavailableError';
    Object.setPrototypeOf(this, new.target.prototype);
  }
}
