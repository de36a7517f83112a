import { withImportDefaults, type FloorPlanImportInput, type TablePatch } from '@pis/domain';
import type { FloorPlanImportRequest, TablePatchRequest } from '../wire-types';

/**
 * The validated import body as the domain's input, its defaults filled by the domain
 * (`withImportDefaults`, docs/reference/provider-api.md#floor-plan-import-fields). Duplicate
 * ids, `minCovers <= maxCovers` and table positions are the domain's checks too.
 */
export const toImportInput = (body: FloorPlanImportRequest): FloorPlanImportInput => withImportDefaults(body);

/** Only the fields the operator sent; the rest of the table stays as it is. */
export function toTablePatch(body: TablePatchRequest): TablePatch {
  const patch: TablePatch = {};
  if (body.label !== undefined) patch.label = body.label;
  if (body.active !== undefined) patch.active = body.active;
  if (body.x !== undefined) patch.x = body.x;
  if (body.y !== undefined) patch.y = body.y;
  if (body.rotation !== undefined) patch.rotation = body.rotation;
  if (body.shape !== undefined) patch.shape = body.shape;
  if (body.seatCount !== undefined) patch.seatCount = body.seatCount;
  if (body.minCovers !== undefined) patch.minCovers = body.minCovers;
  if (body.maxCovers !== undefined) patch.maxCovers = body.maxCovers;
  return patch;
}
