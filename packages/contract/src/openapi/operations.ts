import { backofficeOperations } from './backoffice-operations';
import type { OperationSpec } from './operation-spec';
import { healthOperations } from './health-operations';
import { providerOperations } from './provider-operations';
import { sandboxOperations } from './sandbox-operations';

/** Every endpoint of the service, provider API first. */
export const operations: readonly OperationSpec[] = [
  ...providerOperations,
  ...sandboxOperations,
  ...backofficeOperations,
  ...healthOperations,
];

export function findOperation(operationId: string): OperationSpec {
  const found = operations.find((op) => op.operationId === operationId);
  if (!found) throw new Error(`the contract has no operation ${operationId}`);
  return found;
}
