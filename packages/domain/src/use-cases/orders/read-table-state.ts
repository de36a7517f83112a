import { ownProviderId } from '../../access/provider';
import { providerReader, visibleTo } from '../../access/visibility';
import { fail, ok } from '../../kernel/outcome';
import { tableStateOf, type TableStateSnapshot } from '../../orders/table-state';
import type { UseCase } from '../use-case.types';

/** `providerId`: the reader (left out: the location's own provider). */
export type ReadTableState = UseCase<{ locationId: string; providerId?: string }, TableStateSnapshot>;

/**
 * Every published table with its open order, read in one snapshot with the sequence it
 * reflects; an order seated by another provider's reservation shows `reservationExternalId`
 * null to the reader, as a walk-in does.
 */
export const readTableState: ReadTableState = async (deps, { locationId, providerId }) => {
  const read = await deps.queries.tableState.read(locationId);
  const plan = read.plan;
  if (plan === null) return fail('floorplan_not_published', 'the floor plan has not been published yet');
  const who = providerReader(providerId ?? ownProviderId(locationId));
  const openOrders = read.openOrders.map((order) => visibleTo(who, order.reservationProviderId, order));
  return ok(tableStateOf({ ...read, openOrders, plan }));
};
