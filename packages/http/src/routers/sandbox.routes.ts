import { providerReader, type Deps } from '@pis/domain';
import { SIMULATED_OPERATIONS, sandboxOperationId, type ContractValidator } from '@pis/contract';
import { principalOf } from '../auth/provider-auth';
import { backofficeHandlers, type LocationScope } from './backoffice.routes';
import type { RouteHandlers } from './operation-routes';

/** The location the request acts on: a simulator request can name no other. */
const keyLocation: LocationScope = (req) => principalOf(req.res!.locals).locationId;
/** The calling provider reads the till: another provider's reservation shows as a walk-in. */
const keyReader = (req: Parameters<LocationScope>[0]) =>
  providerReader(principalOf(req.res!.locals).providerId);

/**
 * The till simulator (docs/reference/provider-api.md#sandbox): the backoffice handlers of
 * `SIMULATED_OPERATIONS`, run on the test key's location, so they call the same use cases
 * and give the same answers and events as the operator's.
 */
export function sandboxHandlers(deps: Deps, validator: ContractValidator): RouteHandlers {
  const operator = backofficeHandlers(
    deps,
    validator,
    { keyRevoked: () => undefined },
    keyLocation,
    keyReader,
  );
  return Object.fromEntries(
    SIMULATED_OPERATIONS.map((id) => {
      const handler = operator[id];
      if (!handler) throw new Error(`the backoffice has no handler ${id} to simulate`);
      return [sandboxOperationId(id), handler];
    }),
  );
}
