import type { Response } from 'supertest';
import { operations, responseValidator, type OperationSpec } from '@pis/contract';

const byPattern = operations.map((op) => ({
  op,
  pattern: new RegExp(`^${op.path.replace(/\{\w+\}/g, '[^/]+')}$`),
}));

/** The documented operation a request reached, if any (an unknown route or method has none). */
export function operationFor(method: string, path: string): OperationSpec | undefined {
  const bare = path.split('?')[0]!;
  return byPattern.find(({ op, pattern }) => op.method === method.toLowerCase() && pattern.test(bare))?.op;
}

/**
 * Every response of a documented operation must match the OpenAPI document: its status
 * must be listed for that operation, and its body and required headers must match what
 * the document says for that status. A 405 belongs to no operation (the method is not one).
 */
export function checkAgainstDocument(method: string, path: string, res: Response): void {
  if (res.status === 405 || method.toLowerCase() === 'head') return;
  const op = operationFor(method, path);
  if (!op) return;
  const body = res.status === 204 ? undefined : res.body;
  const details = responseValidator(op.operationId, res.status)(body, res.headers);
  if (details.length > 0) {
    throw new Error(
      `${method.toUpperCase()} ${path} answered ${res.status}, which does not match the OpenAPI document ` +
        `(${op.operationId}): ${JSON.stringify(details)}\nbody: ${JSON.stringify(res.body).slice(0, 2000)}`,
    );
  }
}
