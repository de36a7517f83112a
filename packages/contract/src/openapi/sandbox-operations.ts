import { backofficeOperations } from './backoffice-operations';
import { authErrors, type OperationSpec } from './operation-spec';

const BACKOFFICE_LOCATION = '/api/backoffice/v1/locations/{locationId}';
export const SANDBOX_PREFIX = '/api/provider/v1/sandbox';

/**
 * The till simulator: backoffice operations that a test key may run on its own (sandbox)
 * location, so a provider can cause every event without an operator. One line per
 * operation; the route, the handler and the document follow from the backoffice one.
 */
export const SIMULATED_OPERATIONS = [
  'publishFloorPlan',
  'openWalkInOrder',
  'listOrders',
  'addOrderItem',
  'voidOrderItem',
  'addOrderDiscount',
  'addOrderPayment',
  'setOrderServiceStatus',
  'moveOrder',
  'closeOrder',
  'voidOrder',
] as const;

/** `publishFloorPlan` -> `sandboxPublishFloorPlan` */
export const sandboxOperationId = (backofficeId: string): string =>
  `sandbox${backofficeId[0]!.toUpperCase()}${backofficeId.slice(1)}`;

const SANDBOX_ONLY =
  'sandbox_only: the key is a live key; the simulator takes test keys of sandbox locations';

/** The simulator twin of a backoffice operation: the location is the key's, the credential a test key. */
function sandboxTwin(op: OperationSpec): OperationSpec {
  if (!op.path.startsWith(BACKOFFICE_LOCATION)) {
    throw new Error(`${op.operationId} is not an operation on one location`);
  }
  const { 401: _401, 404: notFound, 500: _500, 503: _503, ...errors } = op.errors;
  const pathParams = (op.pathParams ?? []).filter((p) => p.name !== 'locationId');
  return {
    ...op,
    operationId: sandboxOperationId(op.operationId),
    path: `${SANDBOX_PREFIX}${op.path.slice(BACKOFFICE_LOCATION.length)}`,
    tag: 'sandbox',
    security: 'providerKey',
    summary: `Simulator: ${op.summary[0]!.toLowerCase()}${op.summary.slice(1)}`,
    description:
      `The till simulator, on the test key's own sandbox location: as ${op.method.toUpperCase()} ` +
      `${op.path} of the backoffice, with the same answers and events.` +
      (op.description ? ` ${op.description}` : ''),
    ...(pathParams.length > 0 ? { pathParams } : { pathParams: undefined }),
    errors: {
      ...authErrors(true),
      403: SANDBOX_ONLY,
      ...errors,
      ...(pathParams.length > 0 && notFound ? { 404: 'not_found: the location has no such order' } : {}),
    },
  };
}

export const sandboxOperations: OperationSpec[] = SIMULATED_OPERATIONS.map((id) => {
  const op = backofficeOperations.find((candidate) => candidate.operationId === id);
  if (!op) throw new Error(`the backoffice has no operation ${id} to simulate`);
  return sandboxTwin(op);
});
