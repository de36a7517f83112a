import type { Request, RequestHandler, Response } from 'express';
import type { ErrorCode, Failure, Outcome } from '@pis/domain';
import { validationFailure, type Checked } from '@pis/contract';
import { fromFailure } from '../errors/http-error';

/** What a route answers: a status with an optional JSON body, or a domain failure. */
export type Reply = { status: number; body?: unknown } | Failure;

/**
 * Wraps one endpoint: the handler returns a reply, failures go through the one status
 * table (with per-route overrides) and every error reaches the error handler.
 */
export function endpoint(
  run: (req: Request, res: Response) => Promise<Reply>,
  overrides: Partial<Record<ErrorCode, number>> = {},
): RequestHandler {
  return async (req, res, next) => {
    const reply = await run(req, res);
    if ('ok' in reply) return next(fromFailure(reply, overrides));
    if (reply.body === undefined) res.status(reply.status).end();
    else res.status(reply.status).json(reply.body);
  };
}

/** A checked edge value as an outcome: invalid input is `422 validation_failed` with its details. */
export function accepted<T>(checked: Checked<T>): Outcome<T> {
  return checked.ok ? { ok: true, value: checked.value } : validationFailure(checked.details);
}

/** Runs `then` on a success and maps its value to a reply; a failure passes through. */
export async function respond<T>(
  outcome: Outcome<T> | Promise<Outcome<T>>,
  status: number,
  toBody: (value: T) => unknown,
): Promise<Reply> {
  const settled = await outcome;
  return settled.ok ? { status, body: toBody(settled.value) } : settled;
}

/** Path parameters as Express 5 gives them (always strings for `:name` segments). */
export const param = (req: Request, name: string): string => String(req.params[name]);
