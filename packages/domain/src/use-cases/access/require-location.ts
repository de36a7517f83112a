import type { Location } from '../../access/location';
import { fail, ok, type Outcome } from '../../kernel/outcome';
import type { Deps } from '../deps';

/** Operator commands name their location in the path: an unknown one is `not_found`. */
export async function requireLocation(deps: Deps, locationId: string): Promise<Outcome<Location>> {
  const location = await deps.queries.access.findLocation(locationId);
  return location ? ok(location) : fail('not_found', `there is no location ${locationId}`);
}
