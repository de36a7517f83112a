import type { RequestHandler } from 'express';
import type { OperationSpec } from '@pis/contract';
import type { Route } from './route-table';

export type RouteHandlers = Record<string, RequestHandler>;

export interface RouteGuards {
  /** Run first on every operation (authentication, rate limit). */
  before: RequestHandler[];
  /** Replaces `before` on the operations it answers for (e.g. those a provider scope reaches). */
  beforeOf?: (op: OperationSpec) => RequestHandler[] | undefined;
  /** Reads the body; only operations that take one get it, the others ignore a body. */
  body: RequestHandler;
  /** Run after the body is read. */
  after: RequestHandler[];
  /** Run last on every POST: the `Idempotency-Key` (docs/decisions/0200-idempotency-keys.md). */
  idempotent: RequestHandler;
}

/**
 * Routes from the contract's operation table, so the OpenAPI document and the router
 * cannot disagree: every operation under `prefix` needs a handler and every handler an
 * operation. `{name}` path templates become Express `:name` segments.
 */
export function operationRoutes(
  operations: readonly OperationSpec[],
  prefix: string,
  handlers: RouteHandlers,
  guards: RouteGuards,
): Route[] {
  const mine = operations.filter((op) => op.path.startsWith(prefix) && op.operationId in handlers);
  const missing = operations
    .filter((op) => op.path.startsWith(prefix) && op.security !== 'none' && !(op.operationId in handlers))
    .map((op) => op.operationId);
  const unknown = Object.keys(handlers).filter((id) => !mine.some((op) => op.operationId === id));
  if (missing.length > 0 || unknown.length > 0) {
    throw new Error(
      `router and contract disagree: missing ${missing.join(', ')}; unknown ${unknown.join(', ')}`,
    );
  }
  return mine.map((op) => ({
    method: op.method,
    path: op.path.slice(prefix.length).replace(/\{(\w+)\}/g, ':$1'),
    handlers: [
      ...(guards.beforeOf?.(op) ?? guards.before),
      ...(op.body === undefined ? [] : [guards.body]),
      ...guards.after,
      ...(op.method === 'post' ? [guards.idempotent] : []),
      handlers[op.operationId]!,
    ],
  }));
}
